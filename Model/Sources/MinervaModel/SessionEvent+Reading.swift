public import MinervaCoordinator
public import MinervaJSON

extension SessionEvent {
    /// The members an event may carry as the API shows it (`GET …/events`, the event stream).
    public static let wireKeys: JSONKeys = [
        "seq", "version", "at", "final", "focus", "type", "node", "list", "from", "screen", "params", "parent", "navigator", "presentation",
        "presentedBy", "embedded", "reason", "result", "held", "tab", "flags", "pending", "stack", "to", "navigators", "ui", "title", "sheet",
        "anchor", "dismissible", "selected", "horizontal", "mode", "links", "overlay", "nextNode", "nextNavigator", "device", "deviceSeq",
        "experiment", "variant",
    ]

    /// Reads an event as the API shows it, for a session that runs `app`.
    /// - Throws: ``JSONReadError`` for an event type this model does not know, or members not
    ///   as the server writes them.
    public init(wire value: JSONValue, app: AppDescription) throws(JSONReadError) {
        let reader = try JSONObjectReader(value, keys: Self.wireKeys)
        let time = try reader.string("at")
        guard let at = Timestamp.milliseconds(rfc3339: time) else { throw reader.error("'\(time.prefix(64))' is not an RFC 3339 timestamp", at: .key("at")) }
        self.init(
            seq: try reader.int("seq"), version: try reader.int("version"), at: at, isFinal: try reader.optionalBool("final") ?? false,
            change: try Change(reader: reader, form: .wire, app: app), focus: try reader.optionalNodeID("focus"),
            counters: try IDCounters(optionalFieldsOf: reader), device: try DeviceChange(optionalFieldsOf: reader))
    }
}

extension SessionEvent.Change {
    /// The members of a base navigator in a `flowChanged` record.
    private static let baseKeys: JSONKeys = ["id", "rootKind"]

    /// An `added` event's presentation settings, `nil` when it holds none.
    private static func settings(_ reader: JSONObjectReader) throws(JSONReadError) -> PresentationSettings? {
        let settings = try PresentationSettings(members: reader)
        return settings.isEmpty ? nil : settings
    }

    /// Reads a change from an event's members, in `form` (see ``writeFields(into:form:)``).
    /// - Parameter app: the app the session runs, for what the wire form does not show (a
    ///   pending target's flag); unused for records.
    /// - Throws: ``JSONReadError`` for an unknown event type or a member that is not as written.
    public init(reader: JSONObjectReader, form: SessionEvent.Form, app: AppDescription?) throws(JSONReadError) {
        let type = try reader.string("type")
        guard let kind = SessionEvent.Kind(rawValue: type) else { throw reader.error("unknown event type '\(type.prefix(64))'", at: .key("type")) }
        switch kind {
        case .listChanged:
            self = .listChanged(node: try reader.nodeID("node"), list: try reader.int("list"), from: try reader.int("from"))
        case .appChanged:
            self = .appChanged(from: try reader.string("from"), to: try reader.string("to"))
        case .exposed:
            self = .exposed(experiment: try reader.string("experiment"), variant: try reader.string("variant"))
        case .unchanged:
            self = .unchanged
        case .added:
            self = .navigation(
                .added(
                    AddedNode(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"), params: try reader.optionalObject("params") ?? [:],
                        parent: try reader.nodeID("parent"), navigator: NavigatorID(try reader.string("navigator")),
                        presentation: try reader.object(
                            "presentation", keys: form == .wire ? Presentation.documentKeys : Presentation.keys, Presentation.init(reader:)),
                        presentedBy: try reader.optionalString("presentedBy").map { NavigatorID($0) },
                        embedded: try reader.optionalBool("embedded"), title: try reader.optionalString("title"),
                        settings: try Self.settings(reader))))
        case .removed:
            self = .navigation(
                .removed(
                    RemovedNode(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"),
                        reason: try reader.enumValue("reason", as: NavigationEvent.RemovalReason.self),
                        navigator: NavigatorID(try reader.string("navigator")))))
        case .finished:
            self = .navigation(
                .finished(
                    FinishedFlow(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"), parent: try reader.nodeID("parent"),
                        // Written before results were held only when asked for: every parent held one.
                        result: reader.value("result") ?? .null, held: try reader.optionalBool("held") ?? true)))
        case .tabSelected:
            self = .navigation(.tabSelected(try reader.string("tab")))
        case .flagsChanged:
            self = .navigation(.flagsChanged(try reader.strings("flags")))
        case .pendingChanged:
            switch (form, app) {
            case (.wire, let app?):
                self = .navigation(
                    .pendingChanged(try reader.optionalObject("pending", keys: Pending.documentKeys) { pending throws(JSONReadError) in
                        try Pending(document: pending, app: app)
                    }))
            case (.wire, nil):
                throw reader.error("a pending target is read with the app it runs", at: .key("pending"))
            case (.record, _):
                self = .navigation(.pendingChanged(try reader.optionalObject("pending", keys: Pending.snapshotKeys, Pending.init(reader:))))
            }
        case .heldLinksChanged:
            self = .navigation(.heldLinksChanged(try reader.strings("links")))
        case .flowChanged:
            let bases =
                switch form {
                case .record:
                    try reader.objects("bases", keys: Self.baseKeys) { base throws(JSONReadError) in
                        BaseNavigator(id: NavigatorID(try base.string("id")), rootKind: try base.enumValue("rootKind", as: Presentation.Kind.self))
                    }
                case .wire:
                    try reader.strings("navigators").map { BaseNavigator(id: NavigatorID($0), rootKind: NavigatorID($0).baseRootKind) }
                }
            self = .navigation(.flowChanged(FlowChange(from: try reader.string("from"), to: try reader.string("to"), bases: bases)))
        case .paramsChanged:
            self = .navigation(.paramsChanged(node: try reader.nodeID("node"), params: try reader.optionalObject("params") ?? [:]))
        case .stackChanged:
            self = .navigation(.stackChanged(navigator: NavigatorID(try reader.string("navigator")), stack: try reader.nodeIDs("stack")))
        case .sizeClassChanged:
            self = .navigation(.sizeClassChanged(try reader.enumValue("horizontal", as: SizeClass.self)))
        case .displayModeChanged:
            self = .navigation(.displayModeChanged(try reader.enumValue("mode", as: SplitDisplayMode.self)))
        case .overlayChanged:
            self = .navigation(.overlayChanged(try reader.optionalString("overlay")))
        case .presentationChanged:
            self = .navigation(
                .presentationChanged(
                    node: try reader.nodeID("node"), selected: try reader.optionalString("selected"), dismissible: try reader.optionalBool("dismissible")))
        case .uiChanged:
            self = .navigation(.uiChanged(node: try reader.nodeID("node"), ui: try reader.object("ui")))
        case .resultConsumed:
            self = .navigation(.resultConsumed(node: try reader.nodeID("node"), screen: try reader.string("screen")))
        }
    }
}
