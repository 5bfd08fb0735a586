import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// `PUT /v1/sessions/{id}/nodes/{node}/list` (replaces the node's list) and `PATCH` (changes
    /// some of its cells by id, ``ListPatch``): answers the new list version and the diff. Either is
    /// a session mutation: the session version grows and `If-Match` applies.
    func changeList(
        _ operation: NodeOperation, _ nodeText: String, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange
    ) throws(APIError) -> HTTPReply {
        let command = parse { () throws(APIError) in try SessionCommand(operation, node: nodeText, bytes: request.body) }
        return try mutate(session, request, exchange, command: command, answersOtherThanState: true) { state in
            guard let node = try? state.tree.resolve(node: nodeText), let history = state.lists[node] else {
                preconditionFailure("a list \(operation) that succeeded left no list on node \(nodeText)")
            }
            var writer = JSONWriter(capacity: 128)
            writer.beginObject()
            writer.field("version", history.version)
            writer.key("diff")
            history.latestDiff.write(into: &writer)
            writer.endObject()
            return Self.json(200, writer.bytes, headers: [Self.etag(state.version)])
        }
    }

    /// `GET /v1/sessions/{id}/nodes/{node}/list?since=V`: the sections and the diff from `V`
    /// (default: from the previous version), or `reload: true` when `V` is too old.
    func getList(_ nodeText: String, on session: LiveSession, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var since: Int?
        if let text = request.queryValue("since") {
            guard let value = Int(text), value >= 0 else {
                throw .invalidRequest("query parameter 'since' must be a whole number of at least 0, not \(Excerpt(text))")
            }
            since = value
        }
        let state = try throughCore { () throws(SessionError) in try core.read(session) { $0 } }
        guard let node = try? state.tree.resolve(node: nodeText) else { throw .notFound("no node \(Excerpt(nodeText)) in this session") }
        guard let history = state.lists[node] else {
            throw .notFound("node '\(node)' has no list yet; PUT one first")
        }
        let answer = try since.map { value throws(APIError) in
            try throughCore { () throws(SessionError) in try core.listAnswer(of: session, in: state, node: node, since: value) }
        } ?? .diff(history.latestDiff)
        var writer = JSONWriter(capacity: 256 + history.current.itemCount * 64)
        writer.beginObject()
        writer.field("version", history.version)
        writer.key("sections")
        history.current.write(into: &writer)
        writer.key("diff")
        switch answer {
        case .diff(let diff):
            diff.write(into: &writer)
        case .reload:
            writer.null()
            writer.field("reload", true)
        }
        writer.endObject()
        return Self.json(200, writer.bytes, headers: [Self.etag(state.version)])
    }
}
