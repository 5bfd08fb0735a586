import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Counts the requests a client makes, by the contract's operation id (`getSession`, `getList`, …).
final class CountsOperations: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// How many requests of `operationID` were made so far.
    func count(of operationID: String) -> Int {
        lock.withLock { counts[operationID, default: 0] }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        lock.withLock { counts[operationID, default: 0] += 1 }
        return try await next(request, body, baseURL)
    }
}
