#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an ``HTTPServer`` listens and what it accepts.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal, or `localhost`.
    public var host: String
    /// The port; 0 picks a free one (read it from ``HTTPServer/port``).
    public var port: Int
    /// Worker threads; each polls its own connections with epoll. Default: one per core.
    public var threads: Int
    /// The largest request body accepted; larger ones answer `413` unread.
    public var maxBodySize: Int
    /// Open connections at most; more are refused at accept.
    public var connectionLimit: Int
    /// Open connections from one client address at most (0: no limit), an IPv6 client's /64
    /// prefix counting as one address; more are refused at accept. Behind a proxy every
    /// connection comes from its address: raise it there.
    public var connectionsPerAddress: Int
    /// Seconds a connection must have been idle, or sending its request, before it may be shed
    /// while the server is full, to let in a client whose address holds fewer connections.
    public var shedAfter: Double
    /// Seconds an idle connection stays open (0: forever).
    public var connectionTimeout: Int
    /// Seconds a request may take to arrive whole, from its first byte (0: no limit); its
    /// connection is closed when it takes longer, however steadily its bytes trickle in.
    public var requestTimeout: Int
    /// Bytes each connection has for its request line and headers; more answers `431`.
    public var connectionMemoryLimit: Int
    /// Seconds a stream may send nothing before its heartbeat is sent (see ``HTTPStream``): each
    /// heartbeat finds a client that has gone, and keeps a proxy from closing an idle stream.
    public var streamHeartbeat: Double

    /// Creates a configuration with defaults suited to a small server.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = HTTPServerConfiguration.processorCount,
        maxBodySize: Int = 1 << 20, connectionLimit: Int = 4096, connectionsPerAddress: Int = 1024, shedAfter: Double = 1,
        connectionTimeout: Int = 60, requestTimeout: Int = 30, connectionMemoryLimit: Int = 64 << 10, streamHeartbeat: Double = 15
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.connectionsPerAddress = connectionsPerAddress
        self.shedAfter = shedAfter
        self.connectionTimeout = connectionTimeout
        self.requestTimeout = requestTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.streamHeartbeat = streamHeartbeat
    }

    /// The configuration every limit's default comes from (the command line's defaults too).
    public static let standard = HTTPServerConfiguration()

    /// Why the configuration cannot serve, each reason naming the command-line flag, or none.
    public var problems: [String] {
        var problems: [String] = []
        if !(0...65535).contains(port) { problems.append("--port must be between 0 and 65535") }
        if threads < 1 { problems.append("--threads must be at least 1") }
        if maxBodySize < 1 { problems.append("--max-body must be at least 1") }
        if connectionLimit < 1 { problems.append("--max-connections must be at least 1") }
        if connectionsPerAddress < 0 { problems.append("--max-connections-per-ip must be 0 or more") }
        if shedAfter < 0 { problems.append("--shed-after must be 0 or more") }
        if connectionTimeout < 0 { problems.append("--connection-timeout must be 0 or more") }
        if requestTimeout < 0 { problems.append("--request-timeout must be 0 or more") }
        if !(0.1...3600).contains(streamHeartbeat) { problems.append("--stream-heartbeat must be between 0.1 and 3600 seconds") }
        return problems
    }

    /// The number of processors online.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
