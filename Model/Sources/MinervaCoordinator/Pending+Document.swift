public import MinervaJSON

extension Pending {
    /// The members of a pending target or link as the state document and `pendingChanged`
    /// events show it (``StateDocument``).
    public static let documentKeys: JSONKeys = ["operation", "steps", "flow", "navigator", "replacesStack", "url"]
    /// The members of one of a pending target's steps there.
    static let documentStepKeys: JSONKeys = ["screen", "params", "presentation", "style", "embedInNavigation", "fresh"]

    /// Reads a pending target or link as the state document shows it. The document does not
    /// show a target's flag: it is what its first step's screen requires in `app`.
    /// - Throws: ``JSONReadError`` when it is neither.
    public init(document reader: JSONObjectReader, app: AppDescription) throws(JSONReadError) {
        let operation = try reader.string("operation")
        if operation == PendingLink.operation {
            self = .link(PendingLink(url: try reader.string("url"), flow: try reader.string("flow")))
            return
        }
        guard let known = PendingNavigation.Operation(rawValue: operation) else {
            throw reader.error("unknown operation '\(operation.prefix(64))'", at: .key("operation"))
        }
        let steps = try reader.objects("steps", keys: Self.documentStepKeys) { step throws(JSONReadError) in
            AppDescription.Step(
                screen: try step.string("screen"), params: try step.optionalObject("params") ?? [:],
                presentation: try step.optionalEnumValue("presentation", as: AppDescription.PresentationMode.self),
                style: try step.optionalEnumValue("style", as: ModalStyle.self), embedInNavigation: try step.optionalBool("embedInNavigation"),
                fresh: try step.optionalBool("fresh") ?? false)
        }
        let flag = steps.first.flatMap { app.screens[$0.screen]?.guarded?.flag } ?? ""
        self = .guarded(
            PendingNavigation(
                operation: known, steps: steps, navigator: try reader.optionalString("navigator").map { NavigatorID($0) },
                replacesStack: try reader.optionalBool("replacesStack") ?? false, guardNode: try reader.nodeID("flow"), flag: flag))
    }
}
