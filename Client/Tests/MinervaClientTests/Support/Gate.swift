import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A network that holds a client's changes while it is shut (reads pass), and lets them through
/// in order once it opens: a request on its way while another device changes the session.
final class Gate: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var shut = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Holds every change from now on.
    func close() {
        lock.withLock { shut = true }
    }

    /// Lets the held changes and every later one through.
    func open() {
        let released = lock.withLock {
            shut = false
            defer { waiting = [] }
            return waiting
        }
        for continuation in released { continuation.resume() }
    }

    /// How many changes it holds now.
    var held: Int {
        lock.withLock { waiting.count }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if request.method != .get {
            await withCheckedContinuation { continuation in
                let passes = lock.withLock {
                    guard shut else { return true }
                    waiting.append(continuation)
                    return false
                }
                if passes { continuation.resume() }
            }
        }
        return try await next(request, body, baseURL)
    }
}
