import Foundation

/// Runs an async sequence in a task and keeps what it delivers, so that a test can make
/// changes and then wait, with a time limit, for what the sequence saw.
final class Collected<Element: Sendable>: Sendable {
    private typealias Seen = (elements: [Element], end: Result<Void, any Error>?)

    /// What the task saw, shared between it and the test.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: Seen = ([], nil)

        func withLock<Value>(_ body: (inout Seen) -> Value) -> Value {
            lock.lock()
            defer { lock.unlock() }
            return body(&seen)
        }
    }

    private let state = State()
    private let task: Task<Void, Never>

    init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) where Sequence.Element == Element {
        let state = self.state
        task = Task {
            do {
                for try await element in sequence { state.withLock { $0.elements.append(element) } }
                state.withLock { $0.end = .success(()) }
            } catch {
                state.withLock { $0.end = .failure(error) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Waits until the sequence delivered `count` elements.
    /// - Returns: the elements so far.
    /// - Throws: ``TimedOut`` after `timeout`.
    func waitFor(count: Int, timeout: Duration = .seconds(15)) async throws -> [Element] {
        try await poll(timeout) { $0.elements.count >= count ? $0.elements : nil }
    }

    /// Waits until the sequence ended.
    /// - Returns: how it ended: normally, or with an error.
    /// - Throws: ``TimedOut`` after `timeout`.
    func waitForEnd(timeout: Duration = .seconds(15)) async throws -> Result<Void, any Error> {
        try await poll(timeout) { $0.end }
    }

    /// What the sequence delivered so far.
    var elements: [Element] { state.withLock { $0.elements } }

    private func poll<Value>(
        _ timeout: Duration, _ ready: (Seen) -> Value?
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = state.withLock({ ready($0) }) { return value }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(elements: elements.count)
    }
}

/// A sequence did not deliver in time.
struct TimedOut: Error, CustomStringConvertible {
    let elements: Int
    var description: String { "timed out with \(elements) element(s) delivered" }
}
