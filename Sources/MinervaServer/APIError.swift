import MinervaJSON

/// An error answer of the API: a status, a stable code and a message a person can act on.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// The stable code in the body (`not_found`, `conflict`, …).
    public let code: String
    /// What is wrong and what to do about it.
    public let message: String
    /// Extra header fields (`Allow` for 405, `Retry-After` for 429 and 503).
    public let headers: [Header]

    /// A header field of an error answer.
    public struct Header: Sendable, Equatable {
        let name: String
        let value: String
    }

    init(status: Int, code: String, message: String, headers: [Header] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status) \(code): \(message)" }

    static func invalidRequest(_ message: String) -> APIError { APIError(status: 400, code: "invalid_request", message: message) }
    static let unauthorized = APIError(
        status: 401, code: "unauthorized",
        message: "missing or invalid bearer token for this session; send 'Authorization: Bearer <token>' with the token returned when the session was created",
        headers: [Header(name: "WWW-Authenticate", value: "Bearer")])
    static func notFound(_ message: String) -> APIError { APIError(status: 404, code: "not_found", message: message) }
    /// `403` to a preflight from a web origin that `--cors-origin` does not allow.
    static func originNotAllowed(_ origin: String) -> APIError {
        APIError(
            status: 403, code: "forbidden",
            message: "cross-origin requests from \(Excerpt(origin)) are not allowed; start the server with --cors-origin \(Excerpt(origin)) to allow them")
    }
    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        APIError(
            status: 405, code: "method_not_allowed",
            message: "\(Excerpt(method)) is not allowed here; use \(allowed.joined(separator: " or "))",
            headers: [Header(name: "Allow", value: allowed.joined(separator: ", "))])
    }
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(status: 413, code: "payload_too_large", message: "the request body is larger than the limit of \(limit) bytes")
    }
    /// `412` with the current version's `ETag`, so that a client learns it without another read.
    static func preconditionFailed(current: Int) -> APIError {
        APIError(
            status: 412, code: "precondition_failed",
            message: "If-Match does not name the current version \"\(current)\"; fetch the session again and retry",
            headers: [Header(name: "ETag", value: "\"\(current)\"")])
    }
    static func unprocessable(_ message: String) -> APIError { APIError(status: 422, code: "unprocessable", message: message) }
    static func conflict(_ message: String) -> APIError { APIError(status: 409, code: "conflict", message: message) }
    /// `503`: storage or a server-wide limit refuses for now; `Retry-After` says when to try again.
    static func unavailable(_ message: String, retryAfter: Double = 1) -> APIError {
        APIError(
            status: 503, code: "unavailable", message: message,
            headers: [Header(name: "Retry-After", value: String(max(1, Int(retryAfter.rounded(.up)))))])
    }
    static func rateLimited(retryAfter: Double) -> APIError {
        let seconds = max(1, Int(retryAfter.rounded(.up)))
        return APIError(
            status: 429, code: "rate_limited", message: "too many requests on this session; retry in \(seconds) s",
            headers: [Header(name: "Retry-After", value: String(seconds))])
    }
    static func uriTooLong(limit: Int) -> APIError {
        APIError(status: 414, code: "uri_too_long", message: "the request target is longer than \(limit) bytes")
    }
    static func headersTooLarge(limit: Int) -> APIError {
        APIError(status: 431, code: "headers_too_large", message: "the header fields are larger than \(limit) bytes")
    }

    /// The JSON body: `{"error": {"code", "message"}}`.
    var body: [UInt8] {
        var writer = JSONWriter(capacity: 128 + message.utf8.count)
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        writer.field("code", code)
        writer.field("message", message)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}
