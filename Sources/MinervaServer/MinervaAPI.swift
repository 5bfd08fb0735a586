import Locking
public import Logging
public import MicroHTTP
public import MinervaCoordinator
import MinervaJSON
import Synchronization

/// The HTTP API of Minerva Server: recognises the route, checks the token, method, body
/// and version in the contract's order, runs the navigation model and writes JSON.
public final class MinervaAPI: HTTPResponder {
    /// The app every session runs.
    public let app: AppDescription
    let configuration: ServerConfiguration
    let store: SessionStore
    let logger: Logger
    /// Answers of `POST /v1/sessions` by `Idempotency-Key`.
    let creations: Locked<IdempotencyCache>
    /// Where sessions survive restarts; `nil` keeps them in memory only.
    let storage: (any SessionStorage)?
    /// The web client's files.
    let web: WebAssets
    /// Counters, gauges and timers through swift-metrics.
    let metrics = ServerMetrics()
    /// Request ids are this prefix and a sequence number.
    private let requestIDPrefix = Token.random(bytes: 6) + "-"
    private let requestSequence = Atomic<Int>(0)
    /// The text of `GET /metrics`, from whatever metrics backend the executable bootstrapped.
    let metricsText: @Sendable () -> [UInt8]
    /// When usage was last written to storage.
    private let lastUsageFlush = Locked<Double>(0)

    /// Creates the API over an empty session store.
    /// - Parameters:
    ///   - app: the validated app description.
    ///   - configuration: limits.
    ///   - logger: where request logs go (tokens are never logged).
    ///   - storage: where sessions survive restarts; call ``restore()`` before serving.
    ///   - webRoot: a folder to serve the web client from instead of its embedded copy.
    ///   - metricsText: the Prometheus text format of the metrics, for `GET /metrics`.
    public init(
        app: AppDescription, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger,
        storage: (any SessionStorage)? = nil, webRoot: String? = nil, metricsText: @escaping @Sendable () -> [UInt8] = { [] }
    ) {
        web = WebAssets(root: webRoot)
        self.metricsText = metricsText
        self.app = app
        self.configuration = configuration
        store = SessionStore(capacity: configuration.maxSessions)
        self.logger = logger
        self.storage = storage
        creations = Locked(IdempotencyCache(capacity: 10_000, lifetime: configuration.idempotencyLifetime))
    }

    /// Drops the sessions unused for longer than the session TTL, here and in storage.
    /// - Returns: how many were dropped.
    @discardableResult
    public func expireIdleSessions() -> Int {
        let expired = store.expire(unusedSince: configuration.now() - configuration.sessionTTL)
        for session in expired {
            let nodes = session.state.withLock { state in
                state.closeListeners()
                return state.tree.nodes.count
            }
            metrics.nodes(changedBy: -nodes)
        }
        if !expired.isEmpty { metrics.sessions(store.count) }
        do {
            try storage?.delete(expired.map(\.id))
        } catch {
            logger.error("could not delete expired sessions from storage: \(error)")
        }
        return expired.count
    }

    /// Writes to storage when sessions were last used, so that expiry survives a restart.
    public func flushUsage() {
        guard let storage else { return }
        let since = lastUsageFlush.withLock { last in
            defer { last = configuration.now() }
            return last
        }
        let usage = store.all.filter { $0.lastUsed >= since }.map { (id: $0.id, lastUsed: $0.lastUsed) }
        do {
            try storage.touch(usage)
        } catch {
            logger.error("could not record session usage in storage: \(error)")
        }
    }

    /// How many sessions are live.
    public var sessionCount: Int { store.count }

    public func reply(to request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        let route = Route(path: request.path)
        let requestID = requestID(request)
        var reply: HTTPReply
        do throws(APIError) {
            reply = try self.route(request, route, requestID: requestID)
        } catch {
            reply = .response(Self.errorResponse(error))
        }
        let status: Int
        switch reply {
        case .response(var response):
            status = response.status
            response.headers.append(("X-Request-ID", requestID))
            reply = .response(response)
        case .stream(let streamStatus, var headers, let stream):
            status = streamStatus
            headers.append(("X-Request-ID", requestID))
            reply = .stream(status: streamStatus, headers: headers, stream)
        case .deferred:
            status = 200
        }
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let method =
            switch request.method {
            case "GET", "HEAD", "POST", "PUT", "DELETE": request.method
            default: "other"
            }
        metrics.request(route: route?.metricName ?? "unknown", method: method, status: status, nanoseconds: nanoseconds)
        logger.info(
            "request",
            metadata: [
                "request_id": "\(requestID)", "method": "\(request.method)", "route": "\(route?.metricName ?? "unknown")",
                "status": "\(status)", "micros": "\(nanoseconds / 1000)",
            ])
        return reply
    }

    /// The client's `X-Request-ID` when it is short and printable, else a new one: this
    /// process's random prefix and a sequence number.
    private func requestID(_ request: HTTPRequest) -> String {
        if let given = request.header("x-request-id"), !given.isEmpty, given.utf8.count <= 64,
            given.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E })
        {
            return given
        }
        return requestIDPrefix + String(requestSequence.add(1, ordering: .relaxed).newValue, radix: 16)
    }

    private func route(_ request: HTTPRequest, _ route: Route?, requestID: String) throws(APIError) -> HTTPReply {
        if let malformation = request.malformation {
            throw .invalidRequest(malformation)
        }
        try checkSizes(request)
        guard let route else {
            throw .notFound("no such path: \(Excerpt(request.path))")
        }
        var session: Session?
        if let id = route.sessionID {
            session = try authenticate(id, request)
            try session!.admit(now: configuration.now())
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        guard route.allowedMethods.contains(request.method) || route.allowedMethods.contains(method) else {
            throw .methodNotAllowed(request.method, allowed: route.allowedMethods)
        }
        if request.bodyExceedsLimit {
            throw .payloadTooLarge(limit: configuration.maxBodySize)
        }
        switch (route, method) {
        case (.health, _):
            return .response(Self.json(200, Array(#"{"status":"ok"}"#.utf8)))
        case (.metrics, _):
            return .response(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                    body: metricsText()))
        case (.webAsset(let name), _):
            guard let response = web.response(for: name) else { throw .notFound("no such file: \(Excerpt(name))") }
            return .response(response)
        case (.app, _):
            return .response(Self.json(200, AppDocument.encode(app)))
        case (.sessions, _):
            return .response(try createSession(request))
        case (.session, "DELETE"):
            return .response(try deleteSession(session!, request))
        case (.session, _):
            return .response(try getSession(session!, request))
        case (.events, _):
            return try events(session!, request, requestID: requestID)
        case (.operation(_, let operation), _):
            return .response(try perform(operation, on: session!, request))
        case (.list(_, let node), "PUT"):
            return .response(try putList(node, on: session!, request))
        case (.list(_, let node), _):
            return .response(try getList(node, on: session!, request))
        case (.link, _):
            return .response(try link(session!))
        }
    }

    /// Refuses a request target or header block over the configured limits (`414`, `431`).
    private func checkSizes(_ request: HTTPRequest) throws(APIError) {
        let target = request.path.utf8.count + request.query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
        guard target <= configuration.maxURLBytes else { throw .uriTooLong(limit: configuration.maxURLBytes) }
        let headers = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headers <= configuration.maxHeaderBytes else { throw .headersTooLarge(limit: configuration.maxHeaderBytes) }
    }

    /// Finds the session and checks its bearer token; an unknown session answers exactly like a wrong token.
    private func authenticate(_ id: String, _ request: HTTPRequest) throws(APIError) -> Session {
        guard let token = request.header("authorization").flatMap(Token.bearer(in:)) else { throw .unauthorized }
        guard let session = store.session(id) else {
            _ = Token.matches(token, hash: Token.hash(id))
            throw .unauthorized
        }
        guard session.authorizes(token) else { throw .unauthorized }
        return session
    }

    // MARK: - Answers

    static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(3 + headers.count)  // and the X-Request-ID that `reply(to:)` adds
        fields.append(("Content-Type", "application/json; charset=utf-8"))
        fields.append(("Cache-Control", "no-store"))
        fields.append(contentsOf: headers)
        return HTTPResponse(status: status, headers: fields, body: body)
    }

    static func errorResponse(_ error: APIError) -> HTTPResponse {
        json(error.status, error.body, headers: error.headers.map { ($0.name, $0.value) })
    }

    static func etag(_ version: Int) -> (name: String, value: String) {
        ("ETag", "\"\(version)\"")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[first...last])
    }
}
