/// How an experiment shares its units out: the share of units it takes (coverage) and each
/// variant's weight, as bucket ranges of the hash's `[0, 1)` (GrowthBook's `getBucketRanges`).
public struct VariantAllocation: Sendable, Equatable {
    /// One range per variant, in order: a unit whose position falls in it gets the variant.
    public let ranges: [Range<Double>]

    /// The ranges for `weights` and `coverage`, as GrowthBook's SDKs make them: coverage is
    /// clamped to `0...1`; weights that do not sum to 1 (outside 0.99 to 1.01) count as equal
    /// weights; variant `i` takes `[cᵢ, cᵢ + coverage · wᵢ)`, where `cᵢ` is the sum of the weights
    /// before it, so that a change of coverage keeps every covered unit in its variant.
    /// - Parameter weights: one per variant (an app description's check refuses sums off 1).
    public init(weights: [Double], coverage: Double) {
        let total = weights.reduce(0, +)
        let shares = total < 0.99 || total > 1.01 ? Array(repeating: 1 / Double(max(weights.count, 1)), count: weights.count) : weights
        let covered = min(max(coverage, 0), 1)
        var start = 0.0
        ranges = shares.map { weight in
            defer { start += weight }
            return start..<(start + covered * weight)
        }
    }

    /// The variant of a unit at `position` (``ExperimentHash/position(seed:unit:)``), or `nil` when
    /// it falls outside the covered ranges (the unit is not in the experiment).
    public func variant(at position: Double) -> Int? {
        ranges.firstIndex { $0.contains(position) }
    }
}
