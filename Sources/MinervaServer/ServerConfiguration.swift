public import MinervaSessions
public import MicroHTTP
public import Dispatch

/// What the API allows: the HTTP layer's own limits, and the session core's.
public struct ServerConfiguration: Sendable {
    /// The largest request body, reported in `413` messages.
    public var maxBodySize: Int
    /// Bytes of request line target (path and query) at most; more answer `414`.
    public var maxURLBytes: Int
    /// Bytes of header fields at most; more answer `431`.
    public var maxHeaderBytes: Int
    /// The session core's limits and clock.
    public var sessions: SessionConfiguration
    /// The web origins that may call the API from a browser; none by default.
    public var cors: CORSPolicy
    /// With a shared store: the threads that serve the requests which use it.
    public var storeThreads: Int
    /// With a shared store: how long a request may wait for it before it answers `503`.
    public var storeDeadline: DispatchTimeInterval
    /// The bearer token of `/v1/admin/…`; `nil` turns those paths off (`404`).
    public var adminToken: String?
    /// Event streams one session may have open at once (0: no cap); more answer `429`.
    public var maxStreamsPerSession: Int
    /// Event streams one client address (an IPv6 /64) may have open at once (0: no cap); more
    /// answer `429`.
    public var maxStreamsPerAddress: Int

    /// The configuration every limit's default comes from (the command line's defaults too).
    public static let standard = ServerConfiguration()

    /// Why the configuration cannot serve, each reason naming the command-line flag, or none
    /// (the session core's limits included).
    public var problems: [String] {
        var problems = sessions.problems
        if maxURLBytes < 64 || maxHeaderBytes < 256 { problems.append("--max-url-bytes must be at least 64 and --max-header-bytes at least 256") }
        if !(1...256).contains(storeThreads) { problems.append("--store-threads must be between 1 and 256") }
        if maxStreamsPerSession < 0 || maxStreamsPerAddress < 0 {
            problems.append("--max-streams-per-session and --max-streams-per-ip must be 0 or more")
        }
        return problems
    }

    /// Creates a configuration; every limit has a default suited to a public server.
    public init(
        maxBodySize: Int = HTTPServerConfiguration.standard.maxBodySize, maxURLBytes: Int = 8192, maxHeaderBytes: Int = 16_384,
        sessions: SessionConfiguration = SessionConfiguration(), cors: CORSPolicy = .off, storeThreads: Int = 4,
        storeDeadline: DispatchTimeInterval = .milliseconds(2200), adminToken: String? = nil, maxStreamsPerSession: Int = 4,
        maxStreamsPerAddress: Int = 128
    ) {
        self.adminToken = adminToken
        self.maxStreamsPerSession = maxStreamsPerSession
        self.maxStreamsPerAddress = maxStreamsPerAddress
        self.storeThreads = storeThreads
        self.storeDeadline = storeDeadline
        self.maxBodySize = maxBodySize
        self.maxURLBytes = maxURLBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.sessions = sessions
        self.cors = cors
    }
}
