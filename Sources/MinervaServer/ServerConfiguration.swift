#if canImport(Glibc)
import Glibc
#endif

/// What the API allows, beyond the HTTP layer's own settings.
public struct ServerConfiguration: Sendable {
    /// The largest request body, reported in `413` messages.
    public var maxBodySize: Int
    /// Live sessions at most; more answer `503`.
    public var maxSessions: Int
    /// Events kept per session (at least 1,000 per API.md).
    public var eventHistory: Int
    /// List versions kept per node for `GET …/list?since=` (at least 32 per API.md).
    public var listHistory: Int
    /// Cells per list at most; more answer `422`.
    public var maxListItems: Int
    /// Nodes per session at most; an operation that would pass it answers `409`.
    public var maxNodes: Int
    /// Seconds a session may stay unused before it expires.
    public var sessionTTL: Double
    /// Requests per second per session on average (0: unlimited); more answer `429`.
    public var rateLimit: Double
    /// Requests a session may make at once above the average.
    public var rateBurst: Double
    /// Bytes of request line target (path and query) at most; more answer `414`.
    public var maxURLBytes: Int
    /// Bytes of header fields at most; more answer `431`.
    public var maxHeaderBytes: Int
    /// Seconds an `Idempotency-Key` is remembered.
    public var idempotencyLifetime: Double
    /// Keys remembered per session at most (the oldest are forgotten first).
    public var idempotencyCapacity: Int
    /// The wall clock in seconds; injected so that tests can move time.
    public var now: @Sendable () -> Double

    /// Creates a configuration; every limit has a default suited to a public server.
    public init(
        maxBodySize: Int = 1 << 20, maxSessions: Int = 100_000, eventHistory: Int = 1000, listHistory: Int = 32,
        maxListItems: Int = 10_000, maxNodes: Int = 1000, sessionTTL: Double = 86_400, rateLimit: Double = 100,
        rateBurst: Double = 200, maxURLBytes: Int = 8192, maxHeaderBytes: Int = 16_384, idempotencyLifetime: Double = 86_400,
        idempotencyCapacity: Int = 1000, now: @escaping @Sendable () -> Double = ServerConfiguration.wallClock
    ) {
        self.maxBodySize = maxBodySize
        self.maxSessions = maxSessions
        self.eventHistory = eventHistory
        self.listHistory = listHistory
        self.maxListItems = maxListItems
        self.maxNodes = maxNodes
        self.sessionTTL = sessionTTL
        self.rateLimit = rateLimit
        self.rateBurst = rateBurst
        self.maxURLBytes = maxURLBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.idempotencyLifetime = idempotencyLifetime
        self.idempotencyCapacity = idempotencyCapacity
        self.now = now
    }

    /// Seconds since 1970, from the system's real-time clock.
    public static let wallClock: @Sendable () -> Double = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
