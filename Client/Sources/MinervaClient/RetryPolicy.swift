/// When a request that failed is sent again.
///
/// A request is retried when the server could not be reached or the connection broke, and when
/// the server answered `429` or `503` (after its `Retry-After`). A change is sent again with the
/// same `Idempotency-Key`, so the server applies it once even when its first answer was lost.
/// Other error answers are never retried.
public struct RetryPolicy: Hashable, Sendable {
    /// How many times a request is sent at most, the first time included.
    public var maxAttempts: Int
    /// The wait before the second attempt; it doubles with every attempt after that.
    public var initialDelay: Duration
    /// The longest wait between two attempts, `Retry-After` included.
    public var maxDelay: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: attempts at most, the first one included (1: never retry).
    ///   - initialDelay: the wait before the second attempt.
    ///   - maxDelay: the longest wait between attempts.
    public init(maxAttempts: Int, initialDelay: Duration, maxDelay: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// Four attempts, waiting 0.25 s, 0.5 s and 1 s between them (or what `Retry-After` asks,
    /// up to 5 s).
    public static let `default` = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(250), maxDelay: .seconds(5))

    /// Sends a request once.
    public static let never = RetryPolicy(maxAttempts: 1, initialDelay: .zero, maxDelay: .zero)

    /// Runs `request` until it succeeds, fails in a way that is not retried, or runs out of
    /// attempts.
    /// - Parameters:
    ///   - isolation: the caller's actor, which the attempts run on.
    ///   - request: one attempt; it must send the same request every time.
    /// - Returns: the first successful result.
    /// - Throws: the last attempt's error: a ``MinervaError`` for an error answer, else the
    ///   transport's error (in a `ClientError`); `CancellationError` when the task is cancelled.
    func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ request: () async throws -> Result
    ) async throws -> Result {
        var attempt = 1
        var delay = initialDelay
        while true {
            do {
                return try await request()
            } catch {
                let failure = AttemptFailure(error)
                guard attempt < maxAttempts, let wait = failure.retryDelay(default: delay) else { throw failure.error }
                try await Task.sleep(for: min(wait, maxDelay))
                attempt += 1
                delay *= 2
            }
        }
    }
}
