public import MinervaCoordinator
public import MinervaExperiments

/// An experiment's results, counted from its stored unit rows (``StoredExperimentUnit``) of its
/// current seed: per variant the units assigned and exposed, the sample-ratio check of the
/// exposed ones against the weights, and for each metric the exposed units that converted, with
/// the lift against control and its tests.
///
/// A unit is a session or a user (every session made for them counts as one unit: exposed when
/// the first was, a fact when the first had it from then on). A unit seen in more than one variant (the
/// allocation changed between its sessions) is left out and counted apart, as experiment
/// platforms do. Only exposed units are compared: a fact is kept only once its session is exposed.
public struct ExperimentResults: Sendable {
    /// One variant's units.
    public struct VariantUnits: Sendable, Equatable {
        /// The variant's name.
        public let name: String
        /// Its share of the units the experiment covers.
        public let weight: Double
        /// Units assigned to it (in the experiment's current seed).
        public let assigned: Int
        /// Of those, the ones exposed.
        public let exposed: Int
    }

    /// A variant's conversions on one metric.
    public struct MetricVariant: Sendable, Equatable {
        /// The variant's name.
        public let name: String
        /// Its exposed units: the denominator.
        public let units: Int
        /// The units that converted.
        public let conversions: Int
        /// For a funnel, the units that reached each step (in order); for a completed flow, one count.
        public let steps: [Int]
        /// Of the units that converted, the median time from exposure to conversion, in seconds.
        public let medianSeconds: Double?
        /// And the mean.
        public let meanSeconds: Double?
        /// The cumulative exposed units and conversions at evenly spaced times up to now.
        public let timeline: [TimelinePoint]
        /// Against control (`nil` for control, and when a comparison has no variance).
        public let lift: Lift?

        /// conversions / units, or `nil` without a unit.
        public var rate: Double? { units > 0 ? Double(conversions) / Double(units) : nil }
        /// The rate's interval at ``ExperimentResults/confidence`` (Wilson's), or `nil` without a unit.
        public var rateInterval: ClosedRange<Double>? { RateInterval.wilson(successes: conversions, of: units, confidence: confidence) }
    }

    /// Exposed units and conversions by a time.
    public struct TimelinePoint: Sendable, Equatable {
        /// Milliseconds since 1970.
        public let at: Int
        /// The units exposed by then.
        public let exposed: Int
        /// Of those, the units that converted by then.
        public let conversions: Int
    }

    /// A variant's lift on a metric, against control.
    public struct Lift: Sendable, Equatable {
        /// The fixed-horizon comparison (intervals at ``ExperimentResults/confidence``).
        public let comparison: ProportionComparison
        /// The p-value adjusted by Holm's method over every goal metric and variant (`nil` for a guardrail).
        public let adjustedPValue: Double?
        /// The always-valid interval of the absolute lift, for looking every day (`nil` without variance).
        public let sequentialInterval: ClosedRange<Double>?
        /// Its always-valid p-value.
        public let sequentialPValue: Double?
    }

    /// One metric's results.
    public struct Metric: Sendable, Equatable {
        /// The metric's name.
        public let name: String
        /// What converts a unit.
        public let goal: AppDescription.Experiment.Metric.Goal
        /// Whether it guards against harm (shown beside the goals, its p-values not adjusted).
        public let guardrail: Bool
        /// Control first.
        public let variants: [MetricVariant]
    }

    /// The level of every fixed-horizon interval.
    public static let confidence = 0.95
    /// The sequential intervals' α.
    public static let sequentialAlpha = 0.05
    /// Their tuning parameter (gbstats' default: the sample size they are tightest at).
    public static let sequentialTuning = 5_000.0
    /// How many points a timeline has at most.
    static let timelinePoints = 24

    /// The experiment as the app declares it now.
    public let experiment: AppDescription.Experiment
    /// Control first.
    public let variants: [VariantUnits]
    /// Units left out because they were seen in more than one variant.
    public let mixedUnits: Int
    /// χ² of the exposed units against the weights (`nil` until two variants have exposed units).
    public let sampleRatio: SampleRatioCheck?
    /// In the order the experiment declares them.
    public let metrics: [Metric]
    /// When they were counted, in milliseconds since 1970.
    public let now: Int

    /// Counts `rows` (the experiment's current seed) at `now` (milliseconds since 1970).
    public init(_ experiment: AppDescription.Experiment, rows: [StoredExperimentUnit], now: Int) {
        self.experiment = experiment
        self.now = now
        var byUnit: [String: [StoredExperimentUnit]] = [:]
        for row in rows { byUnit[row.record.unit, default: []].append(row) }
        var units: [CountedUnit] = []
        var mixed = 0
        for sessions in byUnit.values {
            if let unit = CountedUnit(sessions) { units.append(unit) } else { mixed += 1 }
        }
        mixedUnits = mixed
        variants = experiment.variants.map { variant in
            let assigned = units.filter { $0.variant == variant.name }
            return VariantUnits(name: variant.name, weight: variant.weight, assigned: assigned.count, exposed: assigned.filter { $0.exposed != nil }.count)
        }
        sampleRatio = SampleRatioCheck(counts: variants.map(\.exposed), weights: variants.map(\.weight))
        let exposed = units.filter { $0.exposed != nil }
        let span = (exposed.compactMap(\.exposed).min() ?? now)...max(now, exposed.compactMap(\.exposed).max() ?? now)
        var metrics = experiment.metrics.map { metric in
            Self.measure(metric, of: experiment, units: exposed, span: span)
        }
        // Holm over every goal metric's comparison of every variant against control; one that
        // cannot be made yet (no unit or no variance) counts as p = 1.
        let goals = metrics.indices.filter { !metrics[$0].guardrail }.flatMap { metric in
            metrics[metric].variants.indices.dropFirst().map { variant in (metric, variant, metrics[metric].variants[variant].lift?.comparison.pValue ?? 1) }
        }
        for ((metric, variant, _), adjusted) in zip(goals, MultipleComparisons.holm(goals.map(\.2))) {
            metrics[metric] = metrics[metric].adjusting(variant: variant, to: adjusted)
        }
        self.metrics = metrics
    }

    /// One metric of the exposed units, by variant.
    private static func measure(
        _ metric: AppDescription.Experiment.Metric, of experiment: AppDescription.Experiment, units: [CountedUnit], span: ClosedRange<Int>
    ) -> Metric {
        let stepCount = if case .funnel(let screens) = metric.goal { screens.count } else { 1 }
        let measured = experiment.variants.map { variant -> (name: String, units: [CountedUnit], conversions: [Int?], steps: [Int]) in
            let members = units.filter { $0.variant == variant.name }
            var steps = [Int](repeating: 0, count: stepCount)
            let conversions = members.map { unit -> Int? in
                let (reached, at) = unit.progress(on: metric.goal)
                for step in 0..<reached { steps[step] += 1 }
                return at
            }
            return (variant.name, members, conversions, steps)
        }
        let control = measured[0]
        let controlConversions = control.conversions.compactMap { $0 }.count
        let variants = measured.enumerated().map { index, variant -> MetricVariant in
            let converted = variant.conversions.compactMap { $0 }
            let times = zip(variant.units, variant.conversions).compactMap { unit, at in at.flatMap { at in unit.exposed.map { Double(max(0, at - $0)) / 1000 } } }.sorted()
            var lift: Lift?
            if index > 0, let comparison = ProportionComparison(
                control: controlConversions, of: control.units.count, variant: converted.count, of: variant.units.count, confidence: confidence)
            {
                let sequence = SequentialInterval(
                    estimate: comparison.absoluteLift, standardError: comparison.standardError, units: control.units.count + variant.units.count,
                    alpha: sequentialAlpha, tuning: sequentialTuning)
                lift = Lift(
                    comparison: comparison, adjustedPValue: nil,
                    sequentialInterval: sequence.map { (comparison.absoluteLift - $0.halfWidth)...(comparison.absoluteLift + $0.halfWidth) },
                    sequentialPValue: sequence?.pValue)
            }
            return MetricVariant(
                name: variant.name, units: variant.units.count, conversions: converted.count, steps: variant.steps,
                medianSeconds: times.isEmpty ? nil : times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2,
                meanSeconds: times.isEmpty ? nil : times.reduce(0, +) / Double(times.count),
                timeline: timeline(exposed: variant.units.compactMap(\.exposed), converted: converted, span: span), lift: lift)
        }
        return Metric(name: metric.name, goal: metric.goal, guardrail: metric.guardrail, variants: variants)
    }

    /// The cumulative counts at up to ``timelinePoints`` evenly spaced times after the first
    /// exposure, the last one `span`'s end.
    private static func timeline(exposed: [Int], converted: [Int], span: ClosedRange<Int>) -> [TimelinePoint] {
        let width = span.upperBound - span.lowerBound
        let count = width == 0 ? 1 : timelinePoints
        let (exposed, converted) = (exposed.sorted(), converted.sorted())
        var (e, c) = (0, 0)
        return (1...count).map { index in
            let at = span.lowerBound + width * index / count
            while e < exposed.count, exposed[e] <= at { e += 1 }
            while c < converted.count, converted[c] <= at { c += 1 }
            return TimelinePoint(at: at, exposed: e, conversions: c)
        }
    }
}

extension ExperimentResults.Metric {
    /// This metric with one variant's lift carrying its adjusted p-value.
    fileprivate func adjusting(variant index: Int, to adjusted: Double) -> Self {
        var variants = variants
        guard let lift = variants[index].lift else { return self }
        let old = variants[index]
        variants[index] = ExperimentResults.MetricVariant(
            name: old.name, units: old.units, conversions: old.conversions, steps: old.steps, medianSeconds: old.medianSeconds,
            meanSeconds: old.meanSeconds, timeline: old.timeline,
            lift: ExperimentResults.Lift(
                comparison: lift.comparison, adjustedPValue: adjusted, sequentialInterval: lift.sequentialInterval, sequentialPValue: lift.sequentialPValue))
        return Self(name: name, goal: goal, guardrail: guardrail, variants: variants)
    }
}

/// One unit as results count it: the sessions of one session or user, in one variant.
private struct CountedUnit {
    let variant: String
    /// When its first session was exposed.
    let exposed: Int?
    /// When its sessions first had each fact from the unit's exposure on (a session's fact from
    /// before it counts when the session had it again since: at its newest time).
    let facts: [ExperimentFact.Name: Int]

    /// The unit of these sessions, or `nil` when they run more than one variant.
    init?(_ sessions: [StoredExperimentUnit]) {
        guard let first = sessions.first, sessions.allSatisfy({ $0.record.variant == first.record.variant }) else { return nil }
        variant = first.record.variant
        let exposed = sessions.compactMap { $0.facts[.exposed]?.first }.min()
        self.exposed = exposed
        var facts: [ExperimentFact.Name: Int] = [:]
        if let exposed {
            for session in sessions {
                for (name, times) in session.facts {
                    guard let at = times.counted(from: exposed) else { continue }
                    facts[name] = min(facts[name] ?? at, at)
                }
            }
        }
        self.facts = facts
    }

    /// How far it got on a goal from its exposure: the steps of a funnel it reached (each
    /// reached no earlier than the step before it), and when it converted (reached every step, or
    /// completed the flow).
    func progress(on goal: AppDescription.Experiment.Metric.Goal) -> (steps: Int, at: Int?) {
        guard let exposed else { return (0, nil) }
        switch goal {
        case .funnel(let screens):
            var previous = exposed
            for (index, screen) in screens.enumerated() {
                guard let at = facts[.reached(screen)], at >= previous else { return (index, nil) }
                previous = at
            }
            return (screens.count, previous)
        case .completes(let flow):
            guard let at = facts[.completed(flow)] else { return (0, nil) }
            return (1, at)
        }
    }
}
