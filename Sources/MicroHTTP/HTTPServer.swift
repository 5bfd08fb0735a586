import CMicroHTTPD
import Locking
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd: an internal epoll polling thread per worker,
/// keep-alive, bodies gathered up to a limit, and a graceful stop.
///
/// It knows nothing of what it serves: every complete request goes to its ``HTTPResponder``.
public final class HTTPServer: Sendable {
    /// The configuration it was made with.
    public let configuration: HTTPServerConfiguration
    let context: ServerContext
    private let daemon = Locked<DaemonHandle?>(nil)
    private let boundPort = Atomic<Int>(0)

    /// Creates a stopped server.
    /// - Parameters:
    ///   - configuration: where to listen and what to accept.
    ///   - responder: what answers each request.
    ///   - observer: hears which connections were shed or refused, and why.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, observer: (any HTTPConnectionObserver)? = nil) {
        self.configuration = configuration
        let connections = ConnectionTable(
            limits: .init(
                total: configuration.connectionLimit, perGroup: configuration.connectionsPerAddress, shedAfter: configuration.shedAfter),
            receiveDeadline: configuration.requestTimeout > 0 ? Double(configuration.requestTimeout) : nil,
            heartbeat: configuration.streamHeartbeat, observer: observer)
        context = ServerContext(responder: responder, maxBodySize: configuration.maxBodySize, connections: connections)
    }

    /// The port it listens on once started (useful with port 0).
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// The number of requests being answered right now.
    public var requestsInFlight: Int { context.inFlight.load(ordering: .acquiring) }

    /// Starts listening; returns once connections are accepted.
    /// - Throws: ``HTTPServerError`` when the address is invalid or cannot be bound.
    public func start() throws(HTTPServerError) {
        try daemon.withLock { handle throws(HTTPServerError) in
            guard handle == nil else { throw HTTPServerError(description: "the server is already running") }
            let address = try SocketAddress(host: configuration.host, port: configuration.port)
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            let unmanaged = Unmanaged.passUnretained(context).toOpaque()
            let started: OpaquePointer? = address.withSockaddr { sockaddr in
                var settings = minerva_mhd_settings(
                    flags: flags, port: UInt16(configuration.port), address: sockaddr,
                    thread_pool_size: UInt32(max(1, configuration.threads)),
                    connection_limit: UInt32(clamping: libmicrohttpdConnectionLimit),
                    connection_timeout: UInt32(configuration.connectionTimeout),
                    connection_memory_limit: configuration.connectionMemoryLimit,
                    listen_backlog: 1024, accept_policy: acceptPolicy, notify_connection: connectionNotified, callback_context: unmanaged)
                return minerva_mhd_start(&settings, accessHandler, unmanaged, requestCompleted, unmanaged)
            }
            guard let started else {
                throw HTTPServerError(
                    description: "could not listen on \(configuration.host):\(configuration.port) (address in use or not available)")
            }
            handle = DaemonHandle(pointer: started)
            context.connections.start()
            boundPort.store(Int(minerva_mhd_bound_port(started)), ordering: .releasing)
        }
    }

    /// Stops accepting connections, ends long polls (with their fallback answer) and streams,
    /// lets requests in flight finish (up to `gracePeriod` seconds), then closes every
    /// connection and stops the threads.
    /// - Parameter gracePeriod: the longest wait for requests in flight.
    public func shutdown(gracePeriod: Double = 10) {
        daemon.withLock { handle in
            guard let current = handle else { return }
            let listener = MHD_quiesce_daemon(current.pointer)
            if listener >= 0 { close(listener) }
            // Every suspended connection must be resumed before the daemon stops.
            for waiting in context.waiting.withLock({ Array($0.values) }) {
                switch waiting {
                case .deferred(let deferred): deferred.completeWithFallback()
                case .stream(let stream): stream.finish()
                }
            }
            var waited = 0.0
            while context.inFlight.load(ordering: .acquiring) > 0, waited < gracePeriod {
                usleep(10_000)
                waited += 0.01
            }
            context.connections.stop()
            MHD_stop_daemon(current.pointer)
            handle = nil
        }
    }

    /// libmicrohttpd's own limit, which it splits between its workers and checks before it asks
    /// the accept policy: set so that each worker could hold every connection the server allows,
    /// those let in above it, and as many again being shed (closed, not yet reported closed), so
    /// that it never refuses what the server's own limits (checked in the accept policy, across
    /// workers and per address group) would let in.
    private var libmicrohttpdConnectionLimit: Int {
        max(1, configuration.threads) * (configuration.connectionLimit + 2 * ConnectionShares<ConnectionClock>.overdraft)
    }

    deinit {
        shutdown(gracePeriod: 0)
    }
}

/// The daemon pointer, owned by the server's mutex.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
