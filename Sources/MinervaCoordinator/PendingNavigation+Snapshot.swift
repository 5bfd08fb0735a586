public import MinervaJSON

extension PendingNavigation {
    /// Writes the pending target for storage: `{"guardNode", "flag", "steps"}`.
    public func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("guardNode", guardNode)
        writer.field("flag", flag)
        writer.key("steps")
        writer.beginArray()
        for step in steps { step.write(into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// Reads a pending target back from ``writeSnapshot(into:)``.
    /// - Throws: ``SnapshotError`` when the value is not one.
    public init(snapshot value: JSONValue) throws(SnapshotError) {
        let pending = SnapshotReader(value)
        var steps: [AppDescription.Step] = []
        for stepValue in try pending.array("steps") {
            let step = SnapshotReader(stepValue)
            steps.append(
                AppDescription.Step(
                    screen: try step.string("screen"), params: try step.object("params"),
                    presentation: try step.optionalString("presentation").flatMap { AppDescription.PresentationMode(rawValue: $0) },
                    style: try step.optionalString("style").flatMap { ModalStyle(rawValue: $0) },
                    embedInNavigation: step.member("embedInNavigation")?.boolValue))
        }
        self.init(steps: steps, guardNode: try pending.nodeID("guardNode"), flag: try pending.string("flag"))
    }
}
