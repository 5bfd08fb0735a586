import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A network that fails changes at random, as a phone's does: a request lost before it reaches
/// the server, an answer lost after the server applied the change, or a delay; reads pass. Off
/// (``isOn`` false) it passes everything; ``isDisconnected``, it fails every request at once, as
/// a phone without a network does.
final class FlakyNetwork: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var generator: SeededGenerator
    private var on = true
    private var disconnected = false
    private var disconnectAfter: String?
    /// Requests lost before and after the server handled them.
    private(set) var lostRequests = 0
    private(set) var lostAnswers = 0

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// Whether it fails requests.
    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }

    /// Whether no request gets through.
    var isDisconnected: Bool {
        get { lock.withLock { disconnected } }
        set { lock.withLock { disconnected = newValue } }
    }

    /// An operation whose next request reaches the server, after which the network goes down
    /// before the answer comes back (``isDisconnected`` from then on).
    var disconnectsAfter: String? {
        get { lock.withLock { disconnectAfter } }
        set { lock.withLock { disconnectAfter = newValue } }
    }

    /// What happens to one request: 0 lost before, 1 lost after, 2 delayed, else passed.
    private func draw() -> (fate: Int, delay: Int) {
        lock.withLock {
            guard on else { return (3, 0) }
            let fate = Int.random(in: 0..<20, using: &generator)
            if fate == 0 { lostRequests += 1 }
            if fate == 1 { lostAnswers += 1 }
            return (fate, Int.random(in: 1...30, using: &generator))
        }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if isDisconnected { throw URLError(.notConnectedToInternet) }
        if operationID == disconnectsAfter {
            _ = try await next(request, body, baseURL)
            lock.withLock {
                disconnected = true
                disconnectAfter = nil
            }
            throw URLError(.networkConnectionLost)
        }
        guard request.method != .get else { return try await next(request, body, baseURL) }
        let (fate, delay) = draw()
        switch fate {
        case 0:
            throw URLError(.networkConnectionLost)
        case 1:
            _ = try await next(request, body, baseURL)
            throw URLError(.networkConnectionLost)
        case 2:
            try await Task.sleep(for: .milliseconds(delay))
            return try await next(request, body, baseURL)
        default:
            return try await next(request, body, baseURL)
        }
    }
}
