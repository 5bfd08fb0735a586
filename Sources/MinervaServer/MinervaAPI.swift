import Locking
public import Logging
public import MicroHTTP
public import MinervaCoordinator
public import MinervaModel
import MinervaJSON
public import MinervaSessions
import Synchronization
import Dispatch

/// The HTTP API of Minerva Server: recognises the route, checks the token, method, body and
/// version in the contract's order, hands the request to the session core as a typed command,
/// and writes its answer as JSON. Request ids, metrics and logs are wrapped around every
/// request once, when its answer is sent (which, for a durable mutation, is once it is stored).
public final class MinervaAPI: HTTPResponder {
    /// The session core every session lives in.
    public let core: SessionCore
    let configuration: ServerConfiguration
    let logger: Logger
    /// The web client's files.
    let web: WebAssets
    /// Counters, gauges and timers through swift-metrics.
    let metrics = ServerMetrics()
    /// Request ids are this prefix and a sequence number.
    private let requestIDPrefix = Token.random(bytes: 6) + "-"
    private let requestSequence = Atomic<Int>(0)
    /// The threads that serve requests reading a shared store; `nil` for a store in this process.
    private let storeWorkers: StoreWorkers?
    /// Event streams open per session and per client address.
    let streamQuota: Locked<StreamQuota>
    /// The text of `GET /metrics`, from whatever metrics backend the executable bootstrapped.
    let metricsText: @Sendable () -> [UInt8]
    /// `GET /v1/app`'s answer, written once per app description.
    let appDocument: Locked<[UInt8]>
    /// `GET /v1/server`'s answer, written once.
    let serverDocument: [UInt8]

    /// Creates the API and its session core.
    /// - Parameters:
    ///   - app: the validated app description.
    ///   - configuration: limits.
    ///   - logger: where request logs go (tokens are never logged).
    ///   - persistence: where sessions are kept.
    ///   - webRoot: a folder to serve the web client from instead of its embedded copy.
    ///   - metricsText: the Prometheus text format of the metrics, for `GET /metrics`.
    /// - Throws: ``StorageError`` when storage cannot be read.
    public init(
        app: AppDescription, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger,
        persistence: Persistence = .memory, webRoot: String? = nil, metricsText: @escaping @Sendable () -> [UInt8] = { [] }
    ) throws(StorageError) {
        let (document, version) = AppDocument.encode(app)
        appDocument = Locked(document)
        serverDocument = ServerDocument.encode(configuration)
        core = try SessionCore(app: app, appVersion: version, configuration: configuration.sessions, persistence: persistence, logger: logger)
        web = WebAssets(root: webRoot)
        storeWorkers = core.storageIsShared ? StoreWorkers(count: configuration.storeThreads) : nil
        self.metricsText = metricsText
        streamQuota = Locked(StreamQuota(perSession: configuration.maxStreamsPerSession, perAddress: configuration.maxStreamsPerAddress))
        self.configuration = configuration
        self.logger = logger
        refreshGauges()
    }

    /// The app every new session runs.
    public var app: AppDescription { core.app }

    /// The version of ``app``.
    public var appVersion: String { core.appVersion }

    /// An app description's version: the SHA-256 of `GET /v1/app`'s document without its
    /// version and its experiments, which is canonical, so reformatting the file changes nothing
    /// (see ``MinervaSessions/AppVersion/of(_:)``).
    public static func version(of app: AppDescription) -> String {
        AppDocument.encode(app).version
    }

    /// Serves `app` from now on: new sessions run it and `GET /v1/app` shows it; sessions made
    /// before move to it on their next use.
    /// - Returns: its version.
    /// - Throws: ``SessionError`` when a shared store cannot record the version (the app in use stays).
    @discardableResult
    public func replaceApp(_ app: AppDescription) throws(SessionError) -> String {
        let (document, version) = AppDocument.encode(app)
        try appDocument.withLock { current throws(SessionError) in
            try core.replaceApp(app, version: version)
            current = document
        }
        return version
    }

    public func reply(to request: HTTPRequest) -> HTTPReply {
        let route = Route(path: request.path)
        guard let storeWorkers, route?.endpoint.usesStore == true else {
            return answer(request, route, Exchange(api: self, request: request, route: route, requestID: requestID(request), storeDeadline: nil))
        }
        // A shared store is read over the network: the request waits on a store thread, its
        // connection suspended, and answers 503 if the store does not let it finish in time.
        let deadline = StoreDeadline()
        let exchange = Exchange(api: self, request: request, route: route, requestID: requestID(request), storeDeadline: deadline)
        var fallback = Exchange.shuttingDown
        fallback.headers.append(contentsOf: exchange.headers)
        let deferred = HTTPDeferred(fallback: fallback)
        storeWorkers.run {
            guard !deferred.isCompleted else { return }
            deferred.complete(with: self.answer(request, route, exchange))
        }
        let writes = request.method != "GET" && request.method != "HEAD"
        DispatchQueue.global().asyncAfter(deadline: .now() + (route?.endpoint.isAdmin == true ? Self.reportDeadline : configuration.storeDeadline)) {
            guard !deadline.isReleased, !deferred.isCompleted else { return }
            let error =
                writes
                ? APIError(SessionError.outcomeUnknown("the request"))
                : APIError.unavailable("storage did not answer in time; retry later", retryAfter: 1)
            exchange.completeAdding(deferred, with: Self.errorResponse(error))
        }
        return .deferred(deferred)
    }

    /// Answers a request on the calling thread.
    private func answer(_ request: HTTPRequest, _ route: borrowing Route?, _ exchange: Exchange) -> HTTPReply {
        do throws(APIError) {
            switch try self.route(request, route, exchange) {
            case .response(let response):
                return .response(exchange.finish(response))
            case .stream(let status, var headers, let stream):
                headers.append(contentsOf: exchange.headers)
                exchange.record(status: status)
                return .stream(status: status, headers: headers, stream)
            case .deferred(let deferred):
                return .deferred(deferred)
            }
        } catch {
            return .response(exchange.finish(Self.errorResponse(error)))
        }
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

    /// Checks the request in the contract's order (a malformed request, its sizes, its path, a
    /// preflight, then its session and method) and answers it with its endpoint's handler. The
    /// route is borrowed all the way (`borrowing`: the compiler refuses to copy it).
    private func route(_ request: HTTPRequest, _ route: borrowing Route?, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        if let malformation = request.malformation {
            throw .invalidRequest(malformation)
        }
        try checkSizes(request)
        switch route {
        case .some(let route) where !route.endpoint.isAdmin || configuration.adminToken != nil:
            return try handle(request, route, exchange)
        default:
            throw .notFound(Self.unknownPathMessage(request.path))
        }
    }

    /// Answers a request on a path the API has: a CORS preflight, else its endpoint's handler
    /// once the session (on a session's path) and then the method are admitted.
    private func handle(_ request: HTTPRequest, _ route: borrowing Route, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        if let preflight = try configuration.cors.preflight(request, allowing: route.endpoint.methods) {
            return .response(preflight)
        }
        switch route.endpoint.handler {
        case .server(let handler):
            try admit(request, to: route.endpoint)
            return try handler(self, request, exchange, route.parameters)
        case .session(let handler):
            // The session first: a wrong token is 401 whatever the method.
            guard let token = request.header("authorization").flatMap(BearerToken.parse) else { throw .unauthorized }
            let id = route.parameters.id
            let checkingStore = !route.endpoint.changesOnly(request.method)
            // Not through the generic `throughCore`: a tuple or struct through it costs its value witnesses.
            let authorized: AuthorizedSession
            do throws(SessionError) {
                authorized = try core.authorize(id, token: token, checkingStore: checkingStore)
            } catch {
                throw APIError(error)
            }
            let session = authorized.session
            try admit(request, to: route.endpoint)
            guard case .grant(let grant) = authorized.access else { return try handler(self, session, request, exchange, route.parameters) }
            let need = route.endpoint.needs(request.method)
            guard grant.allows(need) else { throw .forbidden(need, scope: grant.scope) }
            var exchange = exchange
            exchange.grant = grant
            return try handler(self, session, request, exchange, route.parameters)
        }
    }

    /// Refuses a method the endpoint does not answer (`405`; `HEAD` is answered wherever `GET`
    /// is) and a body over the limit (`413`).
    private func admit(_ request: HTTPRequest, to endpoint: Endpoint) throws(APIError) {
        let method = request.method == "HEAD" ? "GET" : request.method
        guard endpoint.methods.contains(request.method) || endpoint.methods.contains(method) else {
            throw .methodNotAllowed(request.method, allowed: endpoint.methods)
        }
        if request.bodyExceedsLimit {
            throw .payloadTooLarge(limit: configuration.maxBodySize)
        }
    }

    /// Refuses a request target or header block over the configured limits (`414`, `431`).
    private func checkSizes(_ request: HTTPRequest) throws(APIError) {
        let target = request.path.utf8.count + request.query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
        guard target <= configuration.maxURLBytes else { throw .uriTooLong(limit: configuration.maxURLBytes) }
        let headers = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard headers <= configuration.maxHeaderBytes else { throw .headersTooLarge(limit: configuration.maxHeaderBytes) }
    }

    /// The `404` message for a path the API does not have: a trailing slash is named as the
    /// mistake when the path without it exists.
    private static func unknownPathMessage(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard trimmed != path, !trimmed.isEmpty, Route(path: trimmed) != nil else { return "no such path: \(Excerpt(path))" }
        return "no such path: \(Excerpt(path)); paths have no trailing slash — try \(Excerpt(trimmed))"
    }

    /// Records the core's session and node counts in the gauges.
    func refreshGauges() {
        metrics.sessions(core.sessionCount, nodes: core.nodeCount)
        metrics.sessionsByAppVersion(core.sessionsByAppVersion)
        metrics.followers(streams: streamQuota.withLock { $0.open }, subscribers: core.subscriberCount)
    }

    // MARK: - Answers

    static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(3 + headers.count)  // and the X-Request-ID that the exchange adds
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

/// Runs a call into the session core, its refusal as the API's error.
func throughCore<T>(_ call: () throws(SessionError) -> T) throws(APIError) -> T {
    do throws(SessionError) {
        return try call()
    } catch {
        throw APIError(error)
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
