import Foundation
import MinervaExperiments
import Testing
import TestSupport

/// The statistics against reference figures (scipy and statsmodels give the same on these counts).
@Suite struct StatisticsTests {
    func near(_ value: Double?, _ expected: Double, _ tolerance: Double = 5e-6) -> Bool {
        value.map { abs($0 - expected) <= tolerance } ?? false
    }

    @Test func theNormalQuantileInvertsTheCdf() {
        #expect(near(NormalDistribution.quantile(0.975), 1.959963984540054, 1e-12))
        for p in [1e-6, 0.01, 0.3, 0.5, 0.77, 0.999] { #expect(near(NormalDistribution.cdf(NormalDistribution.quantile(p)), p, 1e-12)) }
    }

    /// 1,100/10,000 against 1,000/10,000.
    @Test func twoProportionsGiveTheReferenceFigures() throws {
        let comparison = try #require(ProportionComparison(control: 1_000, of: 10_000, variant: 1_100, of: 10_000))
        // Each figure to the digits it is given with (half a unit of its last digit).
        #expect(near(comparison.z, 2.3066, 5e-5) && near(comparison.pValue, 0.02108))
        #expect(near(comparison.absoluteLift, 0.01, 1e-12))
        #expect(near(comparison.absoluteInterval.lowerBound, 0.00150) && near(comparison.absoluteInterval.upperBound, 0.01850))
        #expect(near(comparison.relativeLift, 0.100, 1e-12))
        #expect(near(comparison.relativeInterval?.lowerBound, 0.0109, 5e-5) && near(comparison.relativeInterval?.upperBound, 0.1891, 5e-5))
        #expect(ProportionComparison(control: 0, of: 10, variant: 0, of: 10) == nil)
        #expect(ProportionComparison(control: 10, of: 10, variant: 10, of: 10) == nil)
        #expect(ProportionComparison(control: 0, of: 0, variant: 3, of: 10) == nil)
        // No control conversion: no relative lift.
        #expect(try #require(ProportionComparison(control: 0, of: 100, variant: 3, of: 100)).relativeLift == nil)
    }

    /// 50,500/49,500 at 50/50: χ² = 10.0, p = 0.00157, not flagged; a mismatch at p < 0.001 is.
    @Test func theSampleRatioCheckGivesTheReferenceFigures() throws {
        let check = try #require(SampleRatioCheck(counts: [50_500, 49_500], weights: [0.5, 0.5]))
        #expect(near(check.chiSquare, 10.0, 1e-9) && near(check.pValue, 0.00157) && !check.flagged)
        let broken = try #require(SampleRatioCheck(counts: [50_600, 49_400], weights: [0.5, 0.5]))
        #expect(broken.flagged)
        // Weights are taken relative to their sum, and a variant with no weight or no unit is left out (gbstats).
        #expect(try #require(SampleRatioCheck(counts: [50_000, 50_000, 50_000], weights: [0.33, 0.33, 0.33])).chiSquare < 1e-9)
        let kept = try #require(SampleRatioCheck(counts: [500, 0, 500], weights: [0.4, 0.2, 0.4]))
        #expect(kept.chiSquare == 0 && kept.pValue == 1)
        #expect(SampleRatioCheck(counts: [500, 0], weights: [0.5, 0.5]) == nil)
        // Three variants: χ² with 2 degrees of freedom, p = exp(−χ²/2).
        let third = 1.0 / 3
        let three = try #require(SampleRatioCheck(counts: [1_000, 1_050, 950], weights: [third, third, third]))
        #expect(near(three.pValue, exp(-three.chiSquare / 2), 1e-12))
    }

    /// α = 0.05, tuning 5,000, Δ = 0.02, SE = 0.008, n = 20,000 (both variants together).
    @Test func theSequentialIntervalGivesTheReferenceFigures() {
        let sequence = SequentialInterval(estimate: 0.02, standardError: 0.008, units: 20_000)
        #expect(near(sequence?.halfWidth, 0.02502) && near(sequence?.pValue, 0.2766, 5e-5))
        #expect(SequentialInterval(estimate: 0.02, standardError: 0, units: 20_000) == nil)
        #expect(SequentialInterval(estimate: 0.02, standardError: 0.008, units: 0) == nil)
    }

    /// Wilson's interval, as statsmodels' `proportion_confint(method="wilson")` gives it.
    @Test func aRatesIntervalIsWilsons() {
        let interval = RateInterval.wilson(successes: 10, of: 100)
        #expect(near(interval?.lowerBound, 0.05522913706067509, 1e-12) && near(interval?.upperBound, 0.17436566150491348, 1e-12))
        #expect(RateInterval.wilson(successes: 0, of: 50)?.lowerBound == 0 && near(RateInterval.wilson(successes: 0, of: 50)?.upperBound, 0.07134759913335874, 1e-12))
        #expect(RateInterval.wilson(successes: 50, of: 50)?.upperBound == 1 && near(RateInterval.wilson(successes: 50, of: 50)?.lowerBound, 0.9286524008666412, 1e-12))
        #expect(RateInterval.wilson(successes: 0, of: 0) == nil)
    }

    @Test func holmAdjustsInOrderAndKeepsTheOrder() {
        let adjusted = MultipleComparisons.holm([0.01, 0.04, 0.03, 0.005])
        #expect(zip(adjusted, [0.03, 0.06, 0.06, 0.02]).allSatisfy { near($0, $1, 1e-12) })
        // Capped at 1, and a p-value that is not a number counts as 1.
        #expect(MultipleComparisons.holm([0.4, 0.6, .nan]) == [1, 1, 1])
    }

    /// 1,000 A/A experiments of 2,000 units a side at a 10% rate: the fixed-horizon test flags
    /// about 5% (within 3.5 standard deviations of 50), and the sequential one, looked at every
    /// 200 units a side, flags at most that many at any look.
    @Test func withNoTrueDifferenceAboutOneInTwentyIsFlagged() {
        var random = SeededGenerator(state: 2026)
        var fixed = 0
        var sequential = 0
        for _ in 0..<1_000 {
            var (control, variant) = (0, 0)
            var flaggedAtALook = false
            for look in 1...10 {
                for _ in 0..<200 {
                    if Double.random(in: 0..<1, using: &random) < 0.1 { control += 1 }
                    if Double.random(in: 0..<1, using: &random) < 0.1 { variant += 1 }
                }
                let units = 200 * look
                guard let comparison = ProportionComparison(control: control, of: units, variant: variant, of: units) else { continue }
                let error = (comparison.controlRate * (1 - comparison.controlRate) / Double(units)
                    + comparison.variantRate * (1 - comparison.variantRate) / Double(units)).squareRoot()
                if let sequence = SequentialInterval(estimate: comparison.absoluteLift, standardError: error, units: 2 * units), sequence.pValue < 0.05 {
                    flaggedAtALook = true
                }
                if look == 10, comparison.pValue < 0.05 { fixed += 1 }
            }
            if flaggedAtALook { sequential += 1 }
        }
        let bound = 50 + 3.5 * (1_000 * 0.05 * 0.95).squareRoot()
        #expect(Double(abs(fixed - 50)) <= bound - 50, "\(fixed) of 1,000 flagged at the end")
        #expect(Double(sequential) <= bound, "\(sequential) of 1,000 flagged at some look")
    }
}
