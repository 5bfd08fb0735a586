/// An answer to send back.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields to send, in order; the server adds `Content-Length` and `Date`.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How a request is answered: now, later, or as a stream.
public enum HTTPReply: Sendable {
    /// The answer, sent at once.
    case response(HTTPResponse)
    /// An answer that comes later: the connection waits (suspended, holding no thread) until
    /// ``HTTPDeferred/complete(_:)`` is called.
    case deferred(HTTPDeferred)
    /// A body sent in chunks as ``HTTPStream/send(_:)`` provides them (server-sent events).
    case stream(status: Int, headers: [(name: String, value: String)], HTTPStream)
}

/// Answers requests. Called on the server's threads, several at once.
public protocol HTTPResponder: Sendable {
    /// Answers one request now, later, or as a stream; must not block for long.
    /// - Parameter request: the whole request, body included.
    /// - Returns: how it is answered.
    func reply(to request: HTTPRequest) -> HTTPReply
}
