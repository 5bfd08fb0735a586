public import MinervaJSON

extension PendingNavigation {
    /// The members of a stored pending target.
    public static let snapshotKeys: JSONKeys = ["guardNode", "flag", "steps", "operation", "navigator", "replacesStack"]
    /// The members of one of its steps.
    static let stepKeys: JSONKeys = ["screen", "params", "presentation", "style", "embedInNavigation"]

    /// Writes the pending target for storage: `{"guardNode", "flag", "steps", "operation"}`, with
    /// `"navigator"` and `"replacesStack"` for a set-root.
    public func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("guardNode", guardNode)
        writer.field("flag", flag)
        writer.field("operation", operation.rawValue)
        if let navigator {
            writer.field("navigator", navigator.description)
            writer.field("replacesStack", replacesStack)
        }
        writer.key("steps")
        writer.beginArray()
        for step in steps { step.writeSnapshot(into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    /// Reads a pending target back from ``writeSnapshot(into:)`` (a reader over ``snapshotKeys``).
    /// - Throws: ``JSONReadError`` when it is not one.
    public init(reader pending: JSONObjectReader) throws(JSONReadError) {
        let steps = try pending.objects("steps", keys: Self.stepKeys) { step throws(JSONReadError) in
            AppDescription.Step(
                screen: try step.string("screen"), params: try step.optionalObject("params") ?? [:],
                presentation: try step.optionalEnumValue("presentation", as: AppDescription.PresentationMode.self),
                style: try step.optionalEnumValue("style", as: ModalStyle.self), embedInNavigation: try step.optionalBool("embedInNavigation"))
        }
        // Targets stored before set-root, push and present were guarded resume as `navigate`.
        self.init(
            operation: try pending.optionalEnumValue("operation", as: Operation.self) ?? .navigate, steps: steps,
            navigator: try pending.optionalString("navigator").map { NavigatorID($0) }, replacesStack: try pending.optionalBool("replacesStack") ?? false,
            guardNode: try pending.nodeID("guardNode"), flag: try pending.string("flag"))
    }
}
