public import Foundation
public import OpenAPIRuntime

/// Where and how to reach a Minerva Server: its address, the HTTP transport, the retry policy
/// and any middlewares of your own (logging, metrics, a header your proxy wants).
public struct MinervaConnection: Sendable {
    /// The server's address, e.g. `http://127.0.0.1:8080`.
    public var serverURL: URL
    /// The HTTP transport: ``defaultTransport`` unless you give another.
    public var transport: any ClientTransport
    /// When failed requests are sent again.
    public var retryPolicy: RetryPolicy
    /// Middlewares that see every request and answer, outermost first.
    public var middlewares: [any ClientMiddleware]

    /// Creates a connection.
    /// - Parameters:
    ///   - serverURL: the server's address.
    ///   - transport: the HTTP transport; URLSession on Apple platforms, AsyncHTTPClient elsewhere.
    ///   - retryPolicy: when failed requests are sent again.
    ///   - middlewares: middlewares of your own, outermost first.
    public init(
        serverURL: URL,
        transport: any ClientTransport = MinervaConnection.defaultTransport,
        retryPolicy: RetryPolicy = .default,
        middlewares: [any ClientMiddleware] = []
    ) {
        self.serverURL = serverURL
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.middlewares = middlewares
    }

    /// The generated client of `openapi.yaml` over this connection.
    /// - Parameter token: a session's bearer token, sent with every request when given.
    /// - Returns: a client whose error answers throw ``MinervaError`` (in a `ClientError`).
    func client(token: String? = nil) -> Client {
        let authorization: [any ClientMiddleware] = token.map { [BearerToken(token: $0)] } ?? []
        return Client(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
            transport: transport,
            middlewares: middlewares + authorization + [ErrorAnswers(), UnescapedHeaders()]
        )
    }
}
