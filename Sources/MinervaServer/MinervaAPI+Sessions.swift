import Dispatch
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// The members of a `POST /v1/sessions` body.
    static let creationKeys: JSONKeys = ["layout", "deepLink", "flags", "sizeClass", "user", "variants"]

    /// The longest `user` id a session is made for, in bytes.
    static let maxUserBytes = 256

    /// `POST /v1/sessions`: a new session in the launch flow for its `flags`, on that flow's
    /// roots, or built by a deep link (or with it pending for a later flow).
    /// With `Idempotency-Key`, a retry with the same key and body answers the same session.
    func createSession(_ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let key = try IdempotencyKey.parse(request)
        let (layoutText, deepLink, flags, sizeClassText, user, variants) = try readBody(request.body, required: false, keys: Self.creationKeys) {
            body throws(JSONReadError) in
            (
                try body.optionalString("layout"), try body.optionalString("deepLink"), try body.optionalStrings("flags") ?? [],
                try body.optionalString("sizeClass"), try body.optionalString("user"), try body.optionalStringsByName("variants") ?? [:]
            )
        }
        // Forcing a variant is for QA and support: with the admin token only.
        if !variants.isEmpty { try requireAdmin(request) }
        if let user, user.isEmpty || user.utf8.count > Self.maxUserBytes {
            throw .unprocessable("field 'user' must be 1 to \(Self.maxUserBytes) bytes: the id of the person the session is for")
        }
        let app = self.app
        // Every variant routes the same paths (the app description says so), so the app as
        // written tells whether any session could follow the link.
        if let deepLink, app.route(for: deepLink) == nil {
            throw .notFound(app.unmatchedLinkMessage(deepLink))
        }
        let layout = try enumValue(layoutText, field: "layout", as: Layout.self) ?? .stack
        let sizeClass = try enumValue(sizeClassText, field: "sizeClass", as: SizeClass.self) ?? .regular
        if layoutText != nil, app.declaresFlows {
            throw .unprocessable(
                "this app declares flows, whose roots say whether a session is split; leave 'layout' out (flows: \(app.flowOrder.joined(separator: ", ")))")
        }
        let deferred = exchange.deferred(fallback: Exchange.shuttingDownDuringWrite)
        let outcome = core.create(layout: layout, deepLink: deepLink, flags: flags, sizeClass: sizeClass, user: user, variants: variants, key: key) {
            created in
            let document = StateDocument.answer(sessionID: created.id, state: created.state, token: created.token)
            return StoredAnswer(Self.json(201, document, headers: [Self.etag(1), ("Location", "/v1/sessions/\(created.id)")]))
        } completion: { outcome in
            exchange.complete(deferred, with: Self.response(to: outcome))
        }
        guard let outcome else { return .deferred(deferred) }
        return .response(Self.response(to: outcome))
    }

    private static func response(to outcome: Result<StoredAnswer, SessionError>) -> HTTPResponse {
        switch outcome {
        case .success(let answer): answer.isReplay ? answer.replayResponse : answer.response
        case .failure(let error): errorResponse(APIError(error))
        }
    }

    /// `GET /v1/sessions/{id}?lists=none|summary|full&wait=S`: the state document.
    /// With `If-None-Match` naming the current version, `304` and no body; with `wait` as well,
    /// the answer waits (holding no thread) until the version moves or `S` seconds pass.
    func getSession(_ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let ifNoneMatch = try request.header("if-none-match").map { header throws(APIError) in try IfMatch(header, name: "If-None-Match") }
        let lists = try enumValue(request.queryValue("lists"), field: "lists", kind: "query parameter", as: StateDocument.ListDetail.self) ?? .full
        let wait = try Self.waitSeconds(request)
        let id = session.id
        let encode: @Sendable (SessionState) -> HTTPResponse = { state in
            Self.json(200, StateDocument.answer(sessionID: id, state: state, lists: lists), headers: [Self.etag(state.version)])
        }
        var reply: HTTPReply?
        core.observe(session) { state, _ in
            guard let ifNoneMatch, ifNoneMatch.matches(version: state.version) else {
                reply = .response(encode(state))
                return nil
            }
            guard wait > 0 else {
                reply = .response(Self.notModified(version: state.version))
                return nil
            }
            let version = state.version
            let waiting = StateWait(session: session, version: version, exchange: exchange, encode: encode)
            reply = waiting.reply
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(wait)) { waiting.timeOut(version: version) }
            return waiting
        }
        return reply!
    }

    /// `304` with the version's `ETag`.
    static func notModified(version: Int) -> HTTPResponse {
        HTTPResponse(status: 304, headers: [etag(version), ("Cache-Control", "no-store")])
    }

    /// `DELETE /v1/sessions/{id}`: the session and its token are gone; its streams end.
    func deleteSession(_ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let precondition = try IfMatch(request.header("if-match"), name: "If-Match").precondition
        let deferred = exchange.deferred(fallback: Exchange.shuttingDownDuringWrite)
        let outcome = core.delete(session, precondition: precondition) { outcome in
            exchange.complete(deferred, with: Self.response(toDeletion: outcome))
        }
        guard let outcome else { return .deferred(deferred) }
        return .response(Self.response(toDeletion: outcome))
    }

    private static func response(toDeletion outcome: Result<Void, SessionError>) -> HTTPResponse {
        switch outcome {
        case .success: HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
        case .failure(let error): errorResponse(APIError(error))
        }
    }

    /// `GET /v1/sessions/{id}/link`: the deep link that rebuilds the current state, or
    /// `{"url": null}` when no route describes it.
    func link(_ session: LiveSession) throws(APIError) -> HTTPResponse {
        let (version, path) = try throughCore { () throws(SessionError) in
            try core.read(session) { state in (state.version, state.tree.link()) }
        }
        var writer = JSONWriter(capacity: 32 + (path?.utf8.count ?? 0))
        writer.beginObject()
        writer.field("url", path)
        writer.endObject()
        return Self.json(200, writer.bytes, headers: [Self.etag(version)])
    }

    /// The longest `wait` a request may ask for, in seconds.
    static let maximumWait = 60

    /// The `wait` query parameter: 0 when absent, at most ``maximumWait``.
    static func waitSeconds(_ request: HTTPRequest) throws(APIError) -> Int {
        let wait = try wholeNumber(request.queryValue("wait"), "query parameter 'wait'") ?? 0
        guard wait <= maximumWait else {
            throw .invalidRequest("query parameter 'wait' is at most \(maximumWait) seconds")
        }
        return wait
    }

    /// A query parameter or header that must be a whole number ≥ 0; `nil` when absent.
    /// - Parameter name: how the message names it (`query parameter 'after'`).
    static func wholeNumber(_ text: String?, _ name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text.trimmingSpaces), value >= 0 else {
            throw .invalidRequest("\(name) must be a whole number of at least 0, not \(Excerpt(text))")
        }
        return value
    }
}
