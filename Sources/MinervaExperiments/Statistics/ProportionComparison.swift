/// A variant's conversions against control's: the rates, the absolute and relative lift with
/// their intervals, and the fixed-horizon test of a difference.
public struct ProportionComparison: Sendable, Equatable {
    /// Control's and the variant's rates.
    public let controlRate: Double
    public let variantRate: Double
    /// The variant's rate minus control's, and its interval (unpooled standard error).
    public let absoluteLift: Double
    public let absoluteInterval: ClosedRange<Double>
    /// The absolute lift's standard error (unpooled): what its interval and a sequential one are made of.
    public let standardError: Double
    /// The variant's rate over control's, minus 1, and its interval (the delta method, not
    /// bounded at −1, and of no width when the variant converted no unit); `nil` when control
    /// converted no unit.
    public let relativeLift: Double?
    public let relativeInterval: ClosedRange<Double>?
    /// The pooled two-proportion z statistic and its two-sided p-value.
    public let z: Double
    public let pValue: Double

    /// Compares `variant` conversions of `variantUnits` against `control` of `controlUnits`.
    /// - Parameter confidence: the intervals' level (0.95 for 95%).
    /// - Returns: `nil` when either side has no unit, or nobody on either side converted or everybody did
    ///   (no variance to test).
    public init?(control: Int, of controlUnits: Int, variant: Int, of variantUnits: Int, confidence: Double = 0.95) {
        guard controlUnits > 0, variantUnits > 0, (0...controlUnits).contains(control), (0...variantUnits).contains(variant) else { return nil }
        let (n0, n1) = (Double(controlUnits), Double(variantUnits))
        let (p0, p1) = (Double(control) / n0, Double(variant) / n1)
        let pooled = Double(control + variant) / (n0 + n1)
        let pooledError = (pooled * (1 - pooled) * (1 / n0 + 1 / n1)).squareRoot()
        guard pooledError > 0 else { return nil }
        let critical = NormalDistribution.quantile(1 - (1 - confidence) / 2)
        let (variance0, variance1) = (p0 * (1 - p0) / n0, p1 * (1 - p1) / n1)
        let absoluteError = (variance0 + variance1).squareRoot()
        controlRate = p0
        variantRate = p1
        absoluteLift = p1 - p0
        absoluteInterval = (p1 - p0 - critical * absoluteError)...(p1 - p0 + critical * absoluteError)
        standardError = absoluteError
        if p0 > 0 {
            let lift = p1 / p0 - 1
            // Var(p1/p0) ≈ Var(p1)/p0² + p1²·Var(p0)/p0⁴.
            let relativeError = (variance1 / (p0 * p0) + p1 * p1 * variance0 / (p0 * p0 * p0 * p0)).squareRoot()
            relativeLift = lift
            relativeInterval = (lift - critical * relativeError)...(lift + critical * relativeError)
        } else {
            relativeLift = nil
            relativeInterval = nil
        }
        z = (p1 - p0) / pooledError
        pValue = NormalDistribution.twoSidedPValue(z)
    }
}
