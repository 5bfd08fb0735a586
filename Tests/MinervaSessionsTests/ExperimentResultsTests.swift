import MinervaCoordinator
import MinervaExperiments
@testable import MinervaSessions
import Testing

/// Results counted from unit rows: units by their id across sessions, a funnel in order, the
/// statistics of the reference figures, Holm over the goals alone, and the timeline.
@Suite struct ExperimentResultsTests {
    static let experiment = ExperimentSessionTests.coffee.experiment("short-onboarding")!

    static func row(_ session: String, unit: String? = nil, _ variant: String, _ facts: [ExperimentFact.Name: Int]) -> StoredExperimentUnit {
        row(session, unit: unit, variant, times: facts.mapValues { FactTimes(first: $0, last: $0) })
    }

    static func row(_ session: String, unit: String? = nil, _ variant: String, times: [ExperimentFact.Name: FactTimes]) -> StoredExperimentUnit {
        StoredExperimentUnit(
            record: ExperimentUnitRecord(
                session: session, experiment: "short-onboarding", seed: "short-onboarding", unit: unit ?? session, variant: variant, assigned: 0),
            facts: times)
    }

    static func metric(_ results: ExperimentResults, _ name: String) -> ExperimentResults.Metric {
        results.metrics.first { $0.name == name }!
    }

    /// 1,000 of 10,000 control units and 1,100 of 10,000 short ones completed the onboarding.
    @Test func theReferenceCountsGiveTheReferenceFigures() throws {
        var rows: [StoredExperimentUnit] = []
        for index in 0..<20_000 {
            let variant = index < 10_000 ? "control" : "short"
            let converts = index < 10_000 ? index < 1_000 : index - 10_000 < 1_100
            rows.append(Self.row("s\(index)", variant, converts ? [.exposed: 1_000, .completed("onboarding"): 61_000] : [.exposed: 1_000]))
        }
        let results = ExperimentResults(Self.experiment, rows: rows, now: 100_000)
        #expect(results.variants.map(\.exposed) == [10_000, 10_000] && results.sampleRatio?.chiSquare == 0)
        let onboarded = Self.metric(results, "onboarded")
        #expect(onboarded.variants.map(\.conversions) == [1_000, 1_100] && onboarded.variants[0].lift == nil)
        let lift = try #require(onboarded.variants[1].lift)
        let reference = try #require(ProportionComparison(control: 1_000, of: 10_000, variant: 1_100, of: 10_000))
        #expect(lift.comparison == reference && abs(reference.pValue - 0.02108) < 5e-6)
        // The sequence of the absolute lift, both variants' units together.
        let error = (0.1 * 0.9 / 10_000 + 0.11 * 0.89 / 10_000).squareRoot()
        let sequence = try #require(SequentialInterval(estimate: reference.absoluteLift, standardError: error, units: 20_000))
        #expect(abs((lift.sequentialInterval?.upperBound ?? 0) - (reference.absoluteLift + sequence.halfWidth)) < 1e-12)
        #expect(lift.sequentialPValue == sequence.pValue)
        #expect(onboarded.variants[1].medianSeconds == 60 && onboarded.variants[1].meanSeconds == 60)
        // No unit reached a funnel: no comparison without variance.
        #expect(Self.metric(results, "first order").variants[1].lift == nil)
    }

    @Test func aUnitIsItsSessionsTogetherAndOneSeenInTwoVariantsIsLeftOut() {
        let rows = [
            // Ada's two devices: exposed by the first, converted by the second.
            Self.row("s1", unit: "ada", "short", [.exposed: 5_000]),
            Self.row("s2", unit: "ada", "short", [.exposed: 3_000, .completed("onboarding"): 9_000]),
            // Bob on both sides of an allocation change.
            Self.row("s3", unit: "bob", "short", [.exposed: 1_000]),
            Self.row("s4", unit: "bob", "control", [.exposed: 1_000]),
            // Cy never exposed: assigned, not compared.
            Self.row("s5", unit: "cy", "control", [:]),
        ]
        let results = ExperimentResults(Self.experiment, rows: rows, now: 10_000)
        #expect(results.mixedUnits == 1)
        #expect(results.variants.map(\.assigned) == [1, 1] && results.variants.map(\.exposed) == [0, 1])
        let onboarded = Self.metric(results, "onboarded")
        #expect(onboarded.variants.map(\.units) == [0, 1] && onboarded.variants.map(\.conversions) == [0, 1])
        // From the unit's first exposure.
        #expect(onboarded.variants[1].medianSeconds == 6)
        #expect(results.sampleRatio == nil)
    }

    /// A person's other session had a fact before they were exposed: it counts when it happened
    /// again since, at its newest time; one that did not happen again counts nothing.
    @Test func aFactFromBeforeTheUnitsExposureCountsWhenItHappenedAgain() {
        let rows = [
            Self.row("s1", unit: "ada", "short", [.exposed: 100]),
            Self.row("s2", unit: "ada", "short", times: [
                .completed("onboarding"): FactTimes(first: 50, last: 150),
                .reached("menu"): FactTimes(first: 40, last: 60),
            ]),
        ]
        let results = ExperimentResults(Self.experiment, rows: rows, now: 1_000)
        let onboarded = Self.metric(results, "onboarded").variants[1]
        #expect(onboarded.conversions == 1 && onboarded.medianSeconds == 0.05)
        #expect(Self.metric(results, "first order").variants[1].steps == [0, 0, 0, 0])
    }

    @Test func aFunnelCountsStepsReachedInOrder() {
        let rows = [
            Self.row("s1", "control", [.exposed: 0, .reached("menu"): 10, .reached("drink"): 20, .reached("cart"): 30, .reached("done"): 40]),
            // The drink before the menu: the menu only.
            Self.row("s2", "control", [.exposed: 0, .reached("drink"): 5, .reached("menu"): 10, .reached("cart"): 30, .reached("done"): 40]),
            // Shown in one block: at the same time counts.
            Self.row("s3", "control", [.exposed: 0, .reached("menu"): 10, .reached("drink"): 10, .reached("cart"): 10]),
        ]
        let funnel = Self.metric(ExperimentResults(Self.experiment, rows: rows, now: 100), "first order").variants[0]
        #expect(funnel.steps == [3, 2, 2, 1] && funnel.conversions == 1)
    }

    @Test func holmAdjustsTheGoalsAndLeavesTheGuardrail() throws {
        var rows: [StoredExperimentUnit] = []
        for index in 0..<2_000 {
            let variant = index % 2 == 0 ? "control" : "short"
            var facts: [ExperimentFact.Name: Int] = [.exposed: index]
            if index % (variant == "short" ? 5 : 7) == 0 { facts[.completed("onboarding")] = index + 10 }
            if index % 3 == 0 { for screen in ["menu", "drink", "cart", "done"] { facts[.reached(screen)] = index + 20 } }
            if index % (variant == "short" ? 4 : 6) == 1 { facts[.reached("orders")] = index + 30 }
            rows.append(Self.row("s\(index)", variant, facts))
        }
        let results = ExperimentResults(Self.experiment, rows: rows, now: 5_000)
        let goals = try ["onboarded", "first order"].map { try #require(Self.metric(results, $0).variants[1].lift) }
        let adjusted = MultipleComparisons.holm(goals.map(\.comparison.pValue))
        #expect(goals.map(\.adjustedPValue) == adjusted.map(Optional.some))
        let guardrail = try #require(Self.metric(results, "orders opened").variants[1].lift)
        #expect(Self.metric(results, "orders opened").guardrail && guardrail.adjustedPValue == nil)
        // The timeline grows to the totals.
        for variant in Self.metric(results, "onboarded").variants {
            #expect(variant.timeline.count == ExperimentResults.timelinePoints && variant.timeline.last?.at == 5_000)
            #expect(zip(variant.timeline, variant.timeline.dropFirst()).allSatisfy { $0.exposed <= $1.exposed && $0.conversions <= $1.conversions })
            #expect(variant.timeline.last?.exposed == variant.units && variant.timeline.last?.conversions == variant.conversions)
        }
    }
}
