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

/// Answers requests. Called on the server's threads, several at once.
public protocol HTTPResponder: Sendable {
    /// Answers one request; must not block for long.
    /// - Parameter request: the whole request, body included.
    /// - Returns: the answer.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
