/// A rate's interval: Wilson's score interval, which stays within 0...1 and holds its level
/// for small counts and rates near 0 or 1, where the normal approximation does not.
public enum RateInterval {
    /// The interval of `successes` out of `trials` at `confidence` (0.95 for 95%).
    /// - Returns: `nil` without a trial.
    public static func wilson(successes: Int, of trials: Int, confidence: Double = 0.95) -> ClosedRange<Double>? {
        guard trials > 0, (0...trials).contains(successes) else { return nil }
        let n = Double(trials)
        let rate = Double(successes) / n
        let z = NormalDistribution.quantile(1 - (1 - confidence) / 2)
        let z2 = z * z
        let center = (rate + z2 / (2 * n)) / (1 + z2 / n)
        let half = z / (1 + z2 / n) * (rate * (1 - rate) / n + z2 / (4 * n * n)).squareRoot()
        return max(0, center - half)...min(1, center + half)
    }
}
