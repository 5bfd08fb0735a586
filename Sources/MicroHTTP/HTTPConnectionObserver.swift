/// Why the server closed a connection it had accepted, before answering anything on it.
public enum HTTPShedReason: String, Sendable, CaseIterable {
    /// An idle keep-alive connection, shed while the server was full to let a client with a
    /// smaller share in.
    case idle
    /// A connection still sending its request (line, headers or body) past the shedding
    /// deadline, shed while the server was full to let a client with a smaller share in.
    case slowRequest = "slow_request"
    /// A request that took longer than the request timeout to arrive whole (whether or not the
    /// server was full).
    case requestTimeout = "request_timeout"
}

/// Why the server closed a new connection at once.
public enum HTTPRefusalReason: String, Sendable, CaseIterable {
    /// The server held as many connections as it may, and none could be shed for this client:
    /// every one that could goes to an address group holding no more than this one's.
    case full
    /// The client's address group held as many connections as one group may.
    case perAddress = "per_address"
}

/// Hears what the server does to keep its connections shared fairly: for metrics and logs.
/// Called on the server's threads while connections are accepted, so it must return quickly.
public protocol HTTPConnectionObserver: Sendable {
    /// A connection was shed.
    /// - Parameters:
    ///   - reason: why.
    ///   - group: the client address group it came from.
    func shed(_ reason: HTTPShedReason, from group: ClientAddressGroup)

    /// A new connection was refused.
    /// - Parameters:
    ///   - reason: why.
    ///   - group: the client address group it came from.
    func refused(_ reason: HTTPRefusalReason, from group: ClientAddressGroup)

    /// A long poll was answered early, or an event stream ended, to free its connection while
    /// the server was full and no other connection could be shed.
    /// - Parameters:
    ///   - stream: whether it was a stream.
    ///   - group: the client address group it came from.
    func endedEarly(stream: Bool, from group: ClientAddressGroup)
}
