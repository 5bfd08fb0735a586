import MicroHTTP
import MinervaModel
import MinervaSessions

/// One request on its way to its answer: what its log line and metrics need, kept until the
/// answer is sent (at once, or when a stored mutation or a long poll completes), and the
/// header fields every answer to it carries, whichever it is.
struct Exchange: Sendable {
    let api: MinervaAPI
    /// The request's id, sent back as `X-Request-ID` and logged.
    private let requestID: String
    /// What every answer carries: `X-Request-ID`, and the CORS fields of ``CORSPolicy``.
    let headers: [(name: String, value: String)]
    private let method: String
    private let routeName: String
    private let started = ContinuousClock.now
    /// For a request served by the store's threads: its deadline, released once it waits for events.
    let storeDeadline: StoreDeadline?
    /// On a session's path: the extra token the request came with (`nil` for the owner's),
    /// whose revocation ends what the request follows.
    var grant: TokenGrant?

    init(api: MinervaAPI, request: HTTPRequest, route: Route?, requestID: String, storeDeadline: StoreDeadline?) {
        self.api = api
        self.storeDeadline = storeDeadline
        self.requestID = requestID
        headers = [("X-Request-ID", requestID)] + api.configuration.cors.headers(for: request)
        method =
            switch request.method {
            case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE": request.method
            default: "other"
            }
        routeName = route?.endpoint.metricName ?? "unknown"
    }

    /// The answer with the exchange's ``headers``, counted and logged.
    func finish(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.append(contentsOf: headers)
        record(status: response.status)
        return response
    }

    /// An answer that comes later (see ``complete(_:with:)``).
    /// - Parameters:
    ///   - fallback: what is sent if the server stops first; by default `503`.
    ///   - endsEarly: whether the fallback is also a right answer before the wait is over (a long
    ///     poll), sent early when the server is full.
    func deferred(fallback: HTTPResponse? = nil, endsEarly: Bool = false) -> HTTPDeferred {
        HTTPDeferred(fallback: fallback ?? Self.shuttingDown, headers: headers, endsEarly: endsEarly)
    }

    /// Sends a later answer, counted and logged (the deferred adds the exchange's headers); the first
    /// answer wins, later ones are ignored.
    func complete(_ deferred: HTTPDeferred, with response: HTTPResponse) {
        if deferred.complete(response) { record(status: response.status) }
    }

    /// The request goes on to wait for events (a long poll, a stream): no longer for the store.
    func waitsForEvents() {
        storeDeadline?.release()
    }

    /// Sends a later answer through a deferred made without the exchange's headers, adding them;
    /// counted and logged when it is the answer.
    func completeAdding(_ deferred: HTTPDeferred, with response: HTTPResponse) {
        var response = response
        response.headers.append(contentsOf: headers)
        if deferred.complete(response) { record(status: response.status) }
    }

    /// What a deferred answer is when the server stops before it comes.
    static let shuttingDown = MinervaAPI.errorResponse(.unavailable("the server is shutting down; retry"))
    /// What a stored change's deferred answer is when the server stops before it comes: its
    /// write may still commit.
    static let shuttingDownDuringWrite = MinervaAPI.errorResponse(
        APIError(SessionError(.unavailable(retryAfter: 1, outcomeUnknown: true), "the server is shutting down while the change is being stored")))

    /// Counts the answer and writes the request's log line.
    func record(status: Int) {
        let elapsed = ContinuousClock.now - started
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        api.metrics.request(route: routeName, method: method, status: status, nanoseconds: nanoseconds)
        api.logger.info(
            "request",
            metadata: [
                "request_id": "\(requestID)", "method": "\(method)", "route": "\(routeName)", "status": "\(status)",
                "micros": "\(nanoseconds / 1000)",
            ])
    }
}
