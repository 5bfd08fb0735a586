#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An interval and p-value that stay valid however often the results are looked at: the
/// asymptotic confidence sequence GrowthBook's statistics engine (gbstats) uses, with its
/// conventions — `n` the units of both variants together, and ρ set for the stated α.
public struct SequentialInterval: Sendable, Equatable {
    /// The interval's half-width around the estimate.
    public let halfWidth: Double
    /// The always-valid p-value: the α at which the interval, with ρ kept at its value for the
    /// stated α, just reaches 0 (gbstats' convention).
    public let pValue: Double

    /// The sequence at one look.
    /// - Parameters:
    ///   - estimate: the difference (or lift) measured.
    ///   - standardError: its standard error.
    ///   - units: the units of both variants together.
    ///   - alpha: 1 − the confidence level (0.05).
    ///   - tuning: the sample size the sequence is tightest at (gbstats' default 5,000).
    /// - Returns: `nil` without a unit or without variance (gbstats refuses those too).
    public init?(estimate: Double, standardError: Double, units: Int, alpha: Double = 0.05, tuning: Double = 5_000) {
        guard units >= 1, standardError > 0, alpha > 0, alpha < 1, tuning > 0 else { return nil }
        let n = Double(units)
        let rho = Self.rho(alpha: alpha, tuning: tuning)
        let variance = standardError * standardError * n
        // half-width² = s² · 2(nρ² + 1)/(n²ρ²) · log(√(nρ² + 1)/α)
        let scale = variance * 2 * (n * rho * rho + 1) / (n * n * rho * rho)
        halfWidth = (scale * log((n * rho * rho + 1).squareRoot() / alpha)).squareRoot()
        pValue = min(1, (n * rho * rho + 1).squareRoot() / exp(estimate * estimate / scale))
    }

    /// gbstats' ρ for a level and a tuning parameter: `√((−2 log α + log(−2 log α + 1)) / tuning)`.
    public static func rho(alpha: Double, tuning: Double) -> Double {
        ((-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning).squareRoot()
    }
}
