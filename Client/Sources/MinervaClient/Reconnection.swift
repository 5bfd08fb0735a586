/// How long a follower (``SessionChanges``, ``SessionStates``) waits before it asks again after
/// a connection failed: the server's `retry` (1 s) at first, doubling up to 10 s while the
/// server stays unreachable, and back to the start once it answers.
struct Reconnection {
    /// The first wait, which an event stream's `retry:` field sets.
    var initialDelay: Duration = .seconds(1)
    private static let maxDelay: Duration = .seconds(10)
    private var failures = 0

    /// Records an answer: the next failure waits the initial delay again.
    mutating func succeeded() {
        failures = 0
    }

    /// Waits before the next attempt: what the server's `Retry-After` asked for, else longer
    /// after each failure in a row.
    /// - Parameter failure: the failure of the attempt before.
    /// - Throws: `CancellationError` when the task is cancelled meanwhile.
    mutating func wait(after failure: AttemptFailure) async throws {
        let backoff = min(initialDelay * (1 << min(failures, 4)), Self.maxDelay)
        failures += 1
        try await Task.sleep(for: (failure.error as? MinervaError)?.retryAfter ?? backoff)
    }
}
