/// A token bucket: `rate` requests a second on average, bursts up to `burst`.
struct RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var updated: Double

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        updated = now
    }

    /// Takes one token if there is one.
    /// - Returns: `nil` when allowed, else the seconds until the next token.
    mutating func take(now: Double) -> Double? {
        tokens = min(burst, tokens + max(0, now - updated) * rate)
        updated = now
        guard tokens >= 1 else { return (1 - tokens) / rate }
        tokens -= 1
        return nil
    }
}
