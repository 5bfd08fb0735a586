import MinervaJSON

extension AppDescription {
    /// `experiments` (by key) and `assigned`, when the app has them: an app without experiments
    /// keeps the document, and the version, it had before there were any.
    func writeExperiments(into writer: inout JSONWriter) {
        if !experiments.isEmpty {
            writer.key("experiments")
            writer.beginObject()
            for experiment in experiments {
                writer.key(string: experiment.key)
                experiment.write(into: &writer)
            }
            writer.endObject()
        }
        if !assigned.isEmpty {
            writer.key("assigned")
            writer.beginArray()
            for assignment in assigned {
                writer.beginObject()
                writer.field("experiment", assignment.experiment)
                writer.field("variant", assignment.variant)
                writer.key("differs")
                writer.beginArray()
                for screen in assignment.differs { writer.string(screen) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
        }
    }
}

extension AppDescription.Experiment {
    /// The experiment as a file declares it, every default written out.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("unit", unit.rawValue)
        writer.key("coverage")
        writer.value(.double(coverage))
        writer.key("variants")
        writer.beginArray()
        for variant in variants {
            writer.beginObject()
            writer.field("name", variant.name)
            writer.key("weight")
            writer.value(.double(variant.weight))
            if !variant.patch.isEmptyObject {
                writer.key("patch")
                writer.canonicalValue(variant.patch)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("metrics")
        writer.beginArray()
        for metric in metrics {
            writer.beginObject()
            writer.field("name", metric.name)
            switch metric.goal {
            case .funnel(let screens):
                writer.key("funnel")
                writer.beginArray()
                for screen in screens { writer.string(screen) }
                writer.endArray()
            case .completes(let flow):
                writer.field("completes", flow)
            }
            if metric.guardrail { writer.field("guardrail", true) }
            writer.endObject()
        }
        writer.endArray()
        if let winner { writer.field("winner", winner) }
        writer.field("bucketVersion", bucketVersion)
        if let namespace {
            writer.key("namespace")
            writer.beginObject()
            writer.field("name", namespace.name)
            writer.key("range")
            writer.beginArray()
            writer.value(.double(namespace.lower))
            writer.value(.double(namespace.upper))
            writer.endArray()
            writer.endObject()
        }
        if let start { writer.field("start", Timestamp.rfc3339(milliseconds: start)) }
        if let stop { writer.field("stop", Timestamp.rfc3339(milliseconds: stop)) }
        writer.endObject()
    }
}
