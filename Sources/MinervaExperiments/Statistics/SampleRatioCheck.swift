#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Whether the units exposed in each variant match the weights they were assigned by: Pearson's
/// χ² goodness of fit, flagged below p = 0.001 (a mismatch means the assignment or the exposure is
/// broken, and the results are not to be trusted). As gbstats' `check_srm`: variants with no
/// weight or no unit are left out, the weights of the rest are taken relative to their sum, and
/// the test has one degree of freedom fewer than the variants kept.
public struct SampleRatioCheck: Sendable, Equatable {
    /// The p-value under which a mismatch is flagged.
    public static let threshold = 0.001
    /// The χ² statistic and its p-value (k − 1 degrees of freedom).
    public let chiSquare: Double
    public let pValue: Double
    /// Whether the mismatch is flagged.
    public var flagged: Bool { pValue < Self.threshold }

    /// The check of `counts` against `weights` (one weight per count).
    /// - Returns: `nil` when fewer than two variants have both a weight and a unit.
    public init?(counts: [Int], weights: [Double]) {
        guard counts.count == weights.count else { return nil }
        let kept = zip(counts, weights).filter { $0.0 > 0 && $0.1 > 0 }
        guard kept.count >= 2 else { return nil }
        let units = Double(kept.reduce(0) { $0 + $1.0 })
        let weight = kept.reduce(0) { $0 + $1.1 }
        chiSquare = kept.reduce(0) { sum, pair in
            let expected = pair.1 / weight * units
            let difference = Double(pair.0) - expected
            return sum + difference * difference / expected
        }
        pValue = Self.upperRegularizedGamma(Double(kept.count - 1) / 2, chiSquare / 2)
    }

    /// Q(s, x) = Γ(s, x)/Γ(s), the χ² survival function at 2x with 2s degrees of freedom: the
    /// series below s + 1, the continued fraction above (Numerical Recipes, `gammq`).
    static func upperRegularizedGamma(_ s: Double, _ x: Double) -> Double {
        guard x > 0 else { return 1 }
        let logPrefix = s * log(x) - x - lgamma(s)
        if x < s + 1 {
            var term = 1 / s
            var sum = term
            var denominator = s
            for _ in 0..<1_000 {
                denominator += 1
                term *= x / denominator
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * exp(logPrefix))
        }
        // Lentz's method for the continued fraction of Γ(s, x).
        let tiny = 1e-300
        var b = x + 1 - s
        var c = 1 / tiny
        var d = 1 / b
        var fraction = d
        for i in 1..<1_000 {
            let an = -Double(i) * (Double(i) - s)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            fraction *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return exp(logPrefix) * fraction
    }
}
