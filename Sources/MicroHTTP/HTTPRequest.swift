/// One HTTP request as the server received it.
public struct HTTPRequest: Sendable {
    /// The method, as sent (`GET`, `POST`, …).
    public let method: String
    /// The path, percent-decoded, without the query.
    public let path: String
    /// Query parameters in order; a parameter without `=` has an empty value.
    public let query: [(name: String, value: String)]
    /// Header fields in order, names lower-cased.
    public let headers: [(name: String, value: String)]
    /// The body; empty when the body exceeded the limit.
    public let body: [UInt8]
    /// Whether the body was larger than the server's limit (it was read and dropped).
    public let bodyExceedsLimit: Bool
    /// Why the request is malformed at the HTTP level (a NUL byte, a malformed escape,
    /// ambiguous framing), if it is. Such a request must be answered `400` before anything
    /// else is looked at; the server closes its connection after the answer.
    public let malformation: String?
    /// The client's address group (its IPv4 address, or its IPv6 /64), when it came over a connection.
    public let clientAddress: ClientAddressGroup?

    /// Creates a request; the server does this for each one it receives.
    public init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], bodyExceedsLimit: Bool = false, malformation: String? = nil, clientAddress: ClientAddressGroup? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
        self.bodyExceedsLimit = bodyExceedsLimit
        self.malformation = malformation
        self.clientAddress = clientAddress
    }

    /// The request whose line and header block libmicrohttpd delivered (names already lower-cased).
    init(head: RequestHead, body: [UInt8], bodyExceedsLimit: Bool, clientAddress: ClientAddressGroup?) {
        method = head.method
        path = head.path
        query = head.query
        headers = head.headers
        self.body = body
        self.bodyExceedsLimit = bodyExceedsLimit
        malformation = head.malformation
        self.clientAddress = clientAddress
    }

    /// The first value of a header field.
    /// - Parameter name: the field name, lower-case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The first value of a query parameter.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
