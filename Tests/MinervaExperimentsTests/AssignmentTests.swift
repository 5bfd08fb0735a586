import MinervaExperiments
import Testing
import TestSupport

/// Assignment as GrowthBook's SDKs compute it: their published vectors, and units split as the
/// weights say.
@Suite struct AssignmentTests {
    @Test(arguments: [("seed", "a", 0.0505), ("seed", "b", 0.2696), ("foo", "ab", 0.2575)])
    func theHashGivesThePublishedPositions(seed: String, unit: String, position: Double) {
        #expect(ExperimentHash.position(seed: seed, unit: unit) == position)
    }

    /// A non-ASCII id is hashed as UTF-8 bytes (GrowthBook's Go and Swift SDKs; the JavaScript
    /// one would give 0.0761 for "é").
    @Test func aNonASCIIIdIsHashedAsUTF8() {
        #expect(ExperimentHash.position(seed: "foo", unit: "é") == 0.0097)
    }

    /// GrowthBook's `inNamespace` cases: users 1 to 4 in two namespaces, the range [0, 0.4).
    @Test(arguments: [
        ("1", "namespace1", false), ("1", "namespace2", false), ("2", "namespace1", false), ("2", "namespace2", false),
        ("3", "namespace1", false), ("3", "namespace2", true), ("4", "namespace1", false), ("4", "namespace2", true),
    ])
    func namespacesPlaceUnitsAsTheSDKsDo(unit: String, namespace: String, inFirstRange: Bool) {
        #expect((0..<0.4).contains(ExperimentHash.namespacePosition(namespace: namespace, unit: unit)) == inFirstRange)
    }

    /// GrowthBook's `chooseVariation` cases: even ranges, and ranges reduced by a coverage of 0.5.
    @Test func rangesFollowCoverageAndWeights() {
        let even = VariantAllocation(weights: [0.5, 0.5], coverage: 1)
        #expect([0.2, 0.4, 0.6, 0.8, 0, 0.5].map(even.variant(at:)) == [0, 0, 1, 1, 0, 1])
        let reduced = VariantAllocation(weights: [0.5, 0.5], coverage: 0.5)
        #expect(reduced.ranges == [0..<0.25, 0.5..<0.75])
        #expect([0.2, 0.4, 0.6, 0.8, 0.25, 0.5].map(reduced.variant(at:)) == [0, nil, 1, nil, nil, 1])
        let zero = VariantAllocation(weights: [0.5, 0, 0.5], coverage: 1)
        #expect(zero.variant(at: 0.5) == 2)
        // Weights within 0.01 of 1 stand; others count as equal; coverage is clamped.
        #expect(VariantAllocation(weights: [0.33, 0.33, 0.33], coverage: 1).ranges[2].upperBound == 0.99)
        #expect(VariantAllocation(weights: [0.7, 0.7], coverage: 1).ranges == [0..<0.5, 0.5..<1])
        #expect(VariantAllocation(weights: [0.5, 0.5], coverage: 2).ranges == [0..<0.5, 0.5..<1])
        #expect(VariantAllocation(weights: [0.5, 0.5], coverage: 0).variant(at: 0) == nil)
    }

    /// 100,000 synthetic units split 20/30/50 at full coverage: each count within 4.5 standard
    /// deviations of its binomial mean, as a uniform hash would place them (the hash is fixed, so
    /// this pins its spread: 19,779 / 30,215 / 50,006).
    @Test func unitsSplitWithinTheBinomialBoundsOfTheWeights() {
        let weights = [0.2, 0.3, 0.5]
        let allocation = VariantAllocation(weights: weights, coverage: 1)
        var counts = [0, 0, 0]
        for index in 0..<100_000 {
            if let variant = allocation.variant(at: ExperimentHash.position(seed: "onboarding-2026", unit: "user-\(index)")) { counts[variant] += 1 }
        }
        #expect(counts.reduce(0, +) == 100_000)
        for (count, weight) in zip(counts, weights) {
            let mean = 100_000 * weight
            let deviation = (100_000 * weight * (1 - weight)).squareRoot()
            #expect(abs(Double(count) - mean) <= 4.5 * deviation, "\(counts) against \(weights)")
        }
    }
}
