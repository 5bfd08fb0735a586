/// An error answer of Minerva Server: its status and the API's `{"error": {"code", "message"}}`.
///
/// Every operation of ``MinervaSession`` throws this for an answer with a status of 400 or
/// more, after any retries its ``RetryPolicy`` allows. A server that cannot be reached throws
/// the transport's error instead, wrapped in OpenAPIRuntime's `ClientError`.
public struct MinervaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The answer's HTTP status: 401, 404, 409, 412, 422, 429, 503, …
    public let status: Int
    /// The error's code, or nil when the answer was not the API's error document (a proxy's
    /// error page, say). A code this client does not name still comes through:
    /// `Code(rawValue: "…")`.
    public let code: Code?
    /// What is wrong and what to do about it, for a person.
    public let message: String
    /// How long the server asks to wait before retrying (`Retry-After`, on 429 and 503).
    public let retryAfter: Duration?
    /// The answer's `X-Request-ID`, which the server's log names.
    public let requestID: String?

    /// Creates an error answer.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - code: the error document's code, if there was one.
    ///   - message: the error document's message, or the body as text.
    ///   - retryAfter: the `Retry-After` delay, if any.
    ///   - requestID: the answer's `X-Request-ID`, if any.
    public init(status: Int, code: Code?, message: String, retryAfter: Duration? = nil, requestID: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.requestID = requestID
    }

    /// The status, code and message on one line: `412 precondition_failed: If-Match does not …`.
    public var description: String {
        "\(status) \(code?.rawValue ?? "error"): \(message)"
    }
}
