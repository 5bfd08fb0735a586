public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Counts a client's requests and the bytes of the answers' bodies (as they stream in, for the
/// event stream too).
public final class CountsTraffic: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var requestCount = 0
    private var byteCount = 0

    /// Counts from zero.
    public init() {}

    /// Requests and answer-body bytes so far.
    public var totals: (requests: Int, bytes: Int) {
        lock.withLock { (requestCount, byteCount) }
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        lock.withLock { requestCount += 1 }
        let (response, answer) = try await next(request, body, baseURL)
        guard let answer else { return (response, nil) }
        let counted = answer.map { chunk in
            self.lock.withLock { self.byteCount += chunk.count }
            return chunk
        }
        return (response, HTTPBody(counted, length: answer.length, iterationBehavior: answer.iterationBehavior))
    }
}
