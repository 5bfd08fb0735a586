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
    /// Seconds an idle connection stays open (0: forever).
    public var connectionTimeout: Int
    /// Bytes each connection has for its request line and headers; more answers `431`.
    public var connectionMemoryLimit: Int

    /// Creates a configuration with defaults suited to a small server.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = HTTPServerConfiguration.processorCount,
        maxBodySize: Int = 1 << 20, connectionLimit: Int = 4096, connectionTimeout: Int = 60,
        connectionMemoryLimit: Int = 64 << 10
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
    }

    /// The number of processors online.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
