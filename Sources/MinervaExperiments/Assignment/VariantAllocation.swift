/// How an experiment shares its units out: the share of units it takes (coverage) and each
/// variant's weight, as bucket ranges of the hash's `[0, 1)` (GrowthBook's `getBucketRanges`).
public struct VariantAllocation: Sendable, Equatable {
    /// One range per variant, in order: a unit whose position falls in it gets the variant.
    public let ranges: [Range<Double>]

    /// The ranges for `weights` (summing to 1, within 0.01) and `coverage` (0 to 1): variant `i`
    /// takes `[cᵢ, cᵢ + coverage · wᵢ)`, where `cᵢ` is the sum of the weights before it, so that a
    /// change of coverage keeps every covered unit in its variant.
    /// - Precondition: at least one weight, none negative, their sum within 0.01 of 1, and
    ///   coverage within `0...1` (the app description's check refuses any other).
    public init(weights: [Double], coverage: Double) {
        precondition(!weights.isEmpty && weights.allSatisfy { $0 >= 0 } && abs(weights.reduce(0, +) - 1) <= 0.01, "weights must sum to 1")
        precondition((0...1).contains(coverage), "coverage is a share of units")
        var start = 0.0
        ranges = weights.map { weight in
            defer { start += weight }
            return start..<(start + coverage * weight)
        }
    }

    /// The variant of a unit at `position` (``ExperimentHash/position(seed:unit:)``), or `nil` when
    /// it falls outside the covered ranges (the unit is not in the experiment).
    public func variant(at position: Double) -> Int? {
        ranges.firstIndex { $0.contains(position) }
    }
}
