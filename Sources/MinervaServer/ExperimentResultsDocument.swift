import MinervaCoordinator
import MinervaExperiments
import MinervaJSON
import MinervaSessions

/// The document of `GET /v1/admin/experiments/{experiment}` (openapi.yaml's `ExperimentResults`).
enum ExperimentResultsDocument {
    static func encode(_ results: ExperimentResults) -> [UInt8] {
        let experiment = results.experiment
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("experiment", experiment.key)
        writer.field("unit", experiment.unit.rawValue)
        writer.field("seed", experiment.seed)
        writer.field("status", status(of: experiment, at: results.now))
        writer.field("winner", experiment.winner)
        writer.field("at", Timestamp.rfc3339(milliseconds: results.now))
        writer.key("confidence")
        writer.value(.double(ExperimentResults.confidence))
        writer.key("sequential")
        writer.beginObject()
        writer.key("alpha")
        writer.value(.double(ExperimentResults.sequentialAlpha))
        writer.field("tuning", Int(ExperimentResults.sequentialTuning))
        writer.endObject()
        writer.field("adjustment", "holm")
        writer.key("variants")
        writer.beginArray()
        for variant in results.variants {
            writer.beginObject()
            writer.field("name", variant.name)
            writer.key("weight")
            writer.value(.double(variant.weight))
            writer.field("assigned", variant.assigned)
            writer.field("exposed", variant.exposed)
            writer.endObject()
        }
        writer.endArray()
        writer.field("mixedUnits", results.mixedUnits)
        writer.key("sampleRatio")
        if let check = results.sampleRatio {
            writer.beginObject()
            number("chiSquare", check.chiSquare, into: &writer)
            number("pValue", check.pValue, into: &writer)
            writer.field("flagged", check.flagged)
            number("threshold", SampleRatioCheck.threshold, into: &writer)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("metrics")
        writer.beginArray()
        for metric in results.metrics { write(metric, into: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// `concluded` (a winner), `scheduled` (before its start), `stopped` (after its stop; its
    /// units are still counted) or `running`.
    private static func status(of experiment: AppDescription.Experiment, at now: Int) -> String {
        if experiment.winner != nil { return "concluded" }
        if let start = experiment.start, now < start { return "scheduled" }
        if let stop = experiment.stop, now >= stop { return "stopped" }
        return "running"
    }

    private static func write(_ metric: ExperimentResults.Metric, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("name", metric.name)
        let screens: [String]
        switch metric.goal {
        case .funnel(let funnel):
            screens = funnel
            writer.key("funnel")
            writer.beginArray()
            for screen in funnel { writer.string(screen) }
            writer.endArray()
        case .completes(let flow):
            screens = []
            writer.field("completes", flow)
        }
        writer.field("guardrail", metric.guardrail)
        writer.key("variants")
        writer.beginArray()
        for variant in metric.variants {
            writer.beginObject()
            writer.field("name", variant.name)
            writer.field("units", variant.units)
            writer.field("conversions", variant.conversions)
            writer.key("rate")
            optionalNumber(variant.rate, into: &writer)
            interval("rateInterval", variant.rateInterval, into: &writer)
            if !screens.isEmpty {
                writer.key("steps")
                writer.beginArray()
                for (screen, units) in zip(screens, variant.steps) {
                    writer.beginObject()
                    writer.field("screen", screen)
                    writer.field("units", units)
                    writer.endObject()
                }
                writer.endArray()
            }
            writer.key("timeToConvert")
            if let median = variant.medianSeconds, let mean = variant.meanSeconds {
                writer.beginObject()
                number("medianSeconds", median, into: &writer)
                number("meanSeconds", mean, into: &writer)
                writer.endObject()
            } else {
                writer.null()
            }
            writer.key("timeline")
            writer.beginArray()
            for point in variant.timeline {
                writer.beginObject()
                writer.field("at", Timestamp.rfc3339(milliseconds: point.at))
                writer.field("exposed", point.exposed)
                writer.field("conversions", point.conversions)
                writer.endObject()
            }
            writer.endArray()
            writer.key("lift")
            if let lift = variant.lift { write(lift, into: &writer) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    private static func write(_ lift: ExperimentResults.Lift, into writer: inout JSONWriter) {
        let comparison = lift.comparison
        writer.beginObject()
        number("absolute", comparison.absoluteLift, into: &writer)
        interval("absoluteInterval", comparison.absoluteInterval, into: &writer)
        writer.key("relative")
        optionalNumber(comparison.relativeLift, into: &writer)
        interval("relativeInterval", comparison.relativeInterval, into: &writer)
        number("z", comparison.z, into: &writer)
        number("pValue", comparison.pValue, into: &writer)
        writer.key("adjustedPValue")
        optionalNumber(lift.adjustedPValue, into: &writer)
        interval("sequentialInterval", lift.sequentialInterval, into: &writer)
        writer.key("sequentialPValue")
        optionalNumber(lift.sequentialPValue, into: &writer)
        writer.endObject()
    }

    private static func number(_ name: StaticString, _ value: Double, into writer: inout JSONWriter) {
        writer.key(name)
        optionalNumber(value, into: &writer)
    }

    /// A figure, or `null` when it is not a finite number.
    private static func optionalNumber(_ value: Double?, into writer: inout JSONWriter) {
        guard let value, value.isFinite else { return writer.null() }
        writer.value(.double(value))
    }

    private static func interval(_ name: StaticString, _ range: ClosedRange<Double>?, into writer: inout JSONWriter) {
        writer.key(name)
        guard let range else { return writer.null() }
        writer.beginArray()
        optionalNumber(range.lowerBound, into: &writer)
        optionalNumber(range.upperBound, into: &writer)
        writer.endArray()
    }
}
