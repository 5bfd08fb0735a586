import MicroHTTP
import MinervaJSON
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// `GET /v1/sessions/{id}/versions/{version}?lists=none|summary|full`: the state document as
    /// it was at that version, rebuilt from the kept log (`404` naming the versions kept).
    func pastVersion(_ text: String, of session: LiveSession, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let lists = try enumValue(request.queryValue("lists"), field: "lists", kind: "query parameter", as: StateDocument.ListDetail.self) ?? .full
        guard text.first != "0", text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .invalidRequest("a version is a whole number of at least 1, not \(Excerpt(text))")
        }
        let version = Int(text) ?? .max  // beyond any session: 404
        let state = try throughCore { () throws(SessionError) in try core.pastState(of: session, at: version) }
        return Self.json(200, StateDocument.answer(sessionID: session.id, state: state, lists: lists), headers: [Self.etag(version)])
    }

    /// `POST /v1/sessions/{id}/restore {"version"}`: the state at that version becomes the current
    /// one as a new version, described by `removed` (reason `restore`), `added` and `listChanged`
    /// events; the answer is the new state document with `restored` saying which lists came back.
    func restore(_ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let version = parse { () throws(APIError) in
            try readBody(request.body, required: true, keys: ["version"]) { body throws(JSONReadError) in
                let version = try body.int("version")
                guard version >= 1 else { throw body.error("a version is a whole number of at least 1", at: .key("version")) }
                return version
            }
        }
        let command = version.map { version in SessionCommand.restore(core.restoreTarget(of: session, version: version)) }
        let id = session.id
        return try mutate(session, request, exchange, command: command, answersOtherThanState: true) { state in
            guard case .success(.restore(let target)) = command else { preconditionFailure("a restore without its target") }
            return Self.json(200, StateDocument.answer(sessionID: id, state: state, restored: target), headers: [Self.etag(state.version)])
        }
    }
}
