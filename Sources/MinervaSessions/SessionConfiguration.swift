#if canImport(Glibc)
import Glibc
#endif
public import MinervaModel

/// What the session core allows, and its clock.
public struct SessionConfiguration: Sendable {
    /// Sessions at most (in storage, when there is one); more answer `503`.
    public var maxSessions: Int
    /// Events kept per session (at least 1,000 by the contract).
    public var eventHistory: Int
    /// The newest events each live session keeps in memory when a store holds the rest.
    public var eventsInMemory: Int
    /// What the step checks each change against: the size of one node's params and UI state, of
    /// one list, of a whole session, and the list versions kept (its `listHistoryBudget` is half of
    /// `maxSessionBytes`: the lists' older versions take half of the in-memory history, whose whole
    /// is as many bytes again as the session; at least 32 versions kept by the contract).
    public var limits: StepLimits
    /// With the memory store: the bytes of records (events, older list versions, remembered
    /// answers) one session's history may keep there, the oldest going first beyond it.
    public var memoryHistoryBytes: Int
    /// Seconds a session may stay unused before it expires.
    public var sessionTTL: Double
    /// Requests per second per session on average (0: unlimited).
    public var rateLimit: Double
    /// Requests a session may make at once above the average.
    public var rateBurst: Double
    /// Seconds an `Idempotency-Key` is remembered.
    public var idempotencyLifetime: Double
    /// Keys remembered per session at most (the oldest are forgotten first).
    public var idempotencyCapacity: Int
    /// The wall clock in seconds since 1970; injected so that tests can move time.
    public var now: @Sendable () -> Double
    /// How long the analytics writer lets entries gather before it stores them, so that one
    /// transaction carries many mutations' entries (benchmarks that drive a few requests at a
    /// time under valgrind lengthen it and flush themselves).
    public var analyticsLinger: Duration = .milliseconds(10)

    /// Creates a configuration; every limit has a default suited to a public server: a list of
    /// 1,000 cells of 100 bytes (a restaurant's menu) fits, and the default `maxSessions` sessions
    /// at their limits stay within the default memory budget of the server (8 GiB) on every store
    /// (``worstBytes(inMemoryStore:)``).
    public init(
        maxSessions: Int = 10_000, eventHistory: Int = 1000, eventsInMemory: Int = 64, listHistory: Int = 32,
        maxListItems: Int = 10_000, maxListBytes: Int = 196_608, maxNodes: Int = 1000, maxParamBytes: Int = 2048,
        maxUIBytes: Int = 4096, maxSessionBytes: Int = 262_144, memoryHistoryBytes: Int = 256 << 10, sessionTTL: Double = 86_400, rateLimit: Double = 100, rateBurst: Double = 200,
        idempotencyLifetime: Double = 86_400, idempotencyCapacity: Int = 1000,
        now: @escaping @Sendable () -> Double = SessionConfiguration.wallClock
    ) {
        self.maxSessions = maxSessions
        self.eventHistory = eventHistory
        self.eventsInMemory = eventsInMemory
        limits = StepLimits(
            maxListItems: maxListItems, maxListBytes: maxListBytes, maxNodes: maxNodes, maxParamBytes: maxParamBytes, maxUIBytes: maxUIBytes,
            maxSessionBytes: maxSessionBytes, listHistory: listHistory, listHistoryBudget: maxSessionBytes / 2)
        self.memoryHistoryBytes = memoryHistoryBytes
        self.sessionTTL = sessionTTL
        self.rateLimit = rateLimit
        self.rateBurst = rateBurst
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
