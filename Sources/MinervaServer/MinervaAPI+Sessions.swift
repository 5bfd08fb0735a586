import MicroHTTP
import MinervaCoordinator
import MinervaJSON

extension MinervaAPI {
    /// `POST /v1/sessions`: a new session on the app's root screen, or built by a deep link.
    /// With `Idempotency-Key`, a retry with the same key and body answers the same session.
    func createSession(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let key = try IdempotencyKey(request) else { return try makeSession(request) }
        let now = configuration.now()
        return try creations.withLock { cache throws(APIError) in
            if let stored = try cache.answer(for: key.key, fingerprint: key.fingerprint, now: now) { return stored }
            let response = try makeSession(request)
            cache.remember(key.key, fingerprint: key.fingerprint, response: response, now: now)
            do {
                try storage?.save(
                    StoredCreation(
                        key: key.key, fingerprint: key.fingerprint, status: response.status, headers: response.headers, body: response.body,
                        storedAt: now),
                    expiredBefore: now - configuration.idempotencyLifetime)
            } catch {
                logger.error("could not store an idempotency key: \(error)")
            }
            return response
        }
    }

    private func makeSession(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let body = try RequestBody(request.body, required: false)
        let layoutText = try body.string("layout")
        let deepLink = try body.string("deepLink")
        if let deepLink, app.route(for: deepLink) == nil {
            throw .notFound("no route matches the deep link \(Excerpt(deepLink))")
        }
        let layout = try enumValue(layoutText, field: "layout", as: Layout.self) ?? .stack
        do throws(NavigationError) {
            try CoordinatorTree.check(layout: layout, for: app)
        } catch {
            throw APIError(error)
        }
        var tree = CoordinatorTree(app: app, layout: layout)
        if let deepLink {
            do throws(NavigationError) {
                try tree.deepLink(deepLink)
            } catch {
                throw APIError(error)
            }
            guard tree.nodes.count <= configuration.maxNodes else {
                throw .conflict("the deep link would make \(tree.nodes.count) nodes, over the limit of \(configuration.maxNodes)")
            }
        }
        let id = "s_" + Token.random(bytes: 16)
        let token = Token.random(bytes: 32)
        let now = configuration.now()
        let state = SessionState(
            tree: tree, eventHistory: configuration.eventHistory,
            idempotency: IdempotencyCache(capacity: configuration.idempotencyCapacity, lifetime: configuration.idempotencyLifetime))
        let session = Session(
            id: id, tokenHash: Token.hash(token), state: state, rateLimit: configuration.rateLimit, rateBurst: configuration.rateBurst,
            lastUsed: now)
        guard store.insert(session) else {
            throw .unavailable("the server holds its limit of \(configuration.maxSessions) sessions; delete unused sessions or try later")
        }
        if let storage {
            do throws(APIError) {
                try persist(SessionSnapshot.wholeChange(of: session, state, lastUsed: now), storage: storage)
            } catch {
                store.remove(id)
                throw error
            }
        }
        metrics.sessions(store.count)
        metrics.nodes(changedBy: tree.nodes.count)
        let document = session.state.withLock { state in
            StateDocument.encode(sessionID: id, state: state, token: token)
        }
        return Self.json(201, document, headers: [Self.etag(1), ("Location", "/v1/sessions/\(id)")])
    }

    /// `GET /v1/sessions/{id}?lists=none|summary|full`: the state document.
    /// With `If-None-Match` naming the current version, `304` and no body: a cheap "has
    /// anything changed?" for clients that poll.
    func getSession(_ session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let lists = try enumValue(request.queryValue("lists"), field: "lists", kind: "query parameter", as: StateDocument.ListDetail.self) ?? .full
        let ifNoneMatch = request.header("if-none-match").map(IfMatch.init)
        let (version, document) = session.state.withLock { state -> (Int, [UInt8]?) in
            if let ifNoneMatch, ifNoneMatch.matches(version: state.version) { return (state.version, nil) }
            return (state.version, StateDocument.encode(sessionID: session.id, state: state, lists: lists))
        }
        guard let document else {
            return HTTPResponse(status: 304, headers: [Self.etag(version), ("Cache-Control", "no-store")])
        }
        return Self.json(200, document, headers: [Self.etag(version)])
    }

    /// `DELETE /v1/sessions/{id}`: the session and its token are gone.
    func deleteSession(_ session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let ifMatch = IfMatch(request.header("if-match"))
        let nodes = try session.state.withLock { state throws(APIError) in
            try ifMatch.check(version: state.version)
            do {
                try storage?.delete([session.id])
            } catch {
                logger.error("could not delete session \(session.id) from storage: \(error)")
                throw .unavailable("the session could not be deleted from storage; retry later")
            }
            state.closeListeners()
            return state.tree.nodes.count
        }
        store.remove(session.id)
        metrics.sessions(store.count)
        metrics.nodes(changedBy: -nodes)
        return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
    }

    /// `GET /v1/sessions/{id}/link`: the deep link that rebuilds the current state.
    func link(_ session: Session) throws(APIError) -> HTTPResponse {
        let (version, path) = session.state.withLock { state in (state.version, state.tree.link()) }
        guard let path else { throw .notFound("no route describes the current state") }
        var writer = JSONWriter(capacity: 32 + path.utf8.count)
        writer.beginObject()
        writer.field("url", path)
        writer.endObject()
        return Self.json(200, writer.bytes, headers: [Self.etag(version)])
    }
}
