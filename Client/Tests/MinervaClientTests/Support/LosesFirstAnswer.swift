import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A network that loses the answer to the first request of one operation after the server
/// handled it, as a connection that drops on the way back does; and that records the
/// `Idempotency-Key` of every attempt and whether the server replayed an answer.
final class LosesFirstAnswer: ClientMiddleware, @unchecked Sendable {
    /// One attempt of the operation, as sent and answered.
    struct Attempt: Sendable {
        let idempotencyKey: String?
        let replayed: Bool
    }

    private let operationID: String
    private let lock = NSLock()
    private var attempts: [Attempt] = []

    /// - Parameter operationID: the operation whose first answer is lost, e.g. `navigate`.
    init(operationID: String) {
        self.operationID = operationID
    }

    /// The attempts of the operation so far.
    var seen: [Attempt] {
        lock.lock()
        defer { lock.unlock() }
        return attempts
    }

    /// Records an attempt.
    /// - Returns: how many attempts there were, this one included.
    private func record(_ attempt: Attempt) -> Int {
        lock.lock()
        defer { lock.unlock() }
        attempts.append(attempt)
        return attempts.count
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard operationID == self.operationID else { return (response, responseBody) }
        let attempt = Attempt(
            idempotencyKey: request.headerFields[HTTPField.Name("Idempotency-Key")!],
            replayed: response.headerFields[HTTPField.Name("Idempotent-Replayed")!] == "true")
        if record(attempt) == 1 { throw URLError(.networkConnectionLost) }
        return (response, responseBody)
    }
}
