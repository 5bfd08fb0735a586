import MinervaCoordinator
import MinervaJSON
import MinervaModel

extension SessionEvent {
    /// The event as stored (``EventRecord``): its own members as the store names them (not the
    /// API's writer: a record may carry more than the wire shows, and the wire may change without
    /// touching stored events), in the oldest format that holds it.
    var record: EventRecord {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.field(
            "format", RecordFormat.oldest(usesFlows: change.usesFlows, usesPresentableState: focus != nil || change.usesPresentableState))
        writer.field("version", version)
        writer.field("at", at)
        if isFinal { writer.field("final", true) }
        if let focus { writer.field("focus", focus) }
        writer.field("type", type)
        change.writeFields(into: &writer, form: .record)
        if let checkpoint {
            writer.key("checkpoint")
            writer.json(checkpoint)
        }
        writer.endObject()
        return EventRecord(seq: seq, body: writer.bytes, carriesCheckpoint: checkpoint != nil, version: version)
    }

    /// The members an event record may carry.
    private static let recordKeys: JSONKeys = [
        "format", "version", "at", "final", "type", "node", "list", "from", "screen", "params", "parent", "navigator", "presentation",
        "presentedBy", "embedded", "reason", "result", "tab", "flags", "pending", "stack", "to", "checkpoint", "bases", "ui", "title", "sheet", "anchor", "dismissible", "selected", "horizontal", "focus", "held",
    ]
    /// The members of a base navigator in a `flowChanged` record.
    private static let baseKeys: JSONKeys = ["id", "rootKind"]

    /// Reads an event back from its record, in any format up to ``RecordFormat/current``.
    /// - Throws: ``SnapshotError`` when the record is not an event.
    init(record: EventRecord) throws(SnapshotError) {
        let value = try StoredJSON.parse(record.body)
        _ = try RecordFormat.of(value, kind: "event \(record.seq)")  // formats 1 to 4 name an event's members alike
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.recordKeys)
            self.init(
                seq: record.seq, version: try reader.int("version"), at: try reader.int("at"), isFinal: try reader.optionalBool("final") ?? false,
                change: try Self.change(reader), focus: try reader.optionalNodeID("focus"), checkpoint: reader.value("checkpoint").map(Self.bytes))
        } catch {
            throw SnapshotError("event \(record.seq): \(error)")
        }
    }

    /// An `added` record's presentation settings, `nil` when it holds none.
    private static func settings(_ reader: JSONObjectReader) throws(JSONReadError) -> PresentationSettings? {
        let settings = try PresentationSettings(members: reader)
        return settings.isEmpty ? nil : settings
    }

    /// A checkpoint's bytes, written again from the value read.
    private static func bytes(of value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.value(value)
        return writer.bytes
    }

    private static func change(_ reader: JSONObjectReader) throws(JSONReadError) -> Change {
        let type = try reader.string("type")
        guard let kind = Kind(rawValue: type) else { throw reader.error("unknown event type '\(type.prefix(64))'", at: .key("type")) }
        switch kind {
        case .listChanged:
            return .listChanged(node: try reader.nodeID("node"), list: try reader.int("list"), from: try reader.int("from"))
        case .appChanged:
            return .appChanged(from: try reader.string("from"), to: try reader.string("to"))
        case .added:
            return .navigation(
                .added(
                    AddedNode(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"), params: try reader.optionalObject("params") ?? [:],
                        parent: try reader.nodeID("parent"), navigator: NavigatorID(try reader.string("navigator")),
                        presentation: try reader.object("presentation", keys: Presentation.keys, Presentation.init(reader:)),
                        presentedBy: try reader.optionalString("presentedBy").map { NavigatorID($0) },
                        embedded: try reader.optionalBool("embedded"), title: try reader.optionalString("title"),
                        settings: try Self.settings(reader))))
        case .removed:
            return .navigation(
                .removed(
                    RemovedNode(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"),
                        reason: try reader.enumValue("reason", as: NavigationEvent.RemovalReason.self),
                        navigator: NavigatorID(try reader.string("navigator")))))
        case .finished:
            return .navigation(
                .finished(
                    FinishedFlow(
                        node: try reader.nodeID("node"), screen: try reader.string("screen"), parent: try reader.nodeID("parent"),
                        // Written before results were held only when asked for: every parent held one.
                        result: reader.value("result") ?? .null, held: try reader.optionalBool("held") ?? true)))
        case .tabSelected:
            return .navigation(.tabSelected(try reader.string("tab")))
        case .flagsChanged:
            return .navigation(.flagsChanged(try reader.strings("flags")))
        case .pendingChanged:
            return .navigation(
                .pendingChanged(try reader.optionalObject("pending", keys: Pending.snapshotKeys, Pending.init(reader:))))
        case .flowChanged:
            let bases = try reader.objects("bases", keys: baseKeys) { base throws(JSONReadError) in
                BaseNavigator(id: NavigatorID(try base.string("id")), rootKind: try base.enumValue("rootKind", as: Presentation.Kind.self))
            }
            return .navigation(.flowChanged(FlowChange(from: try reader.string("from"), to: try reader.string("to"), bases: bases)))
        case .paramsChanged:
            return .navigation(.paramsChanged(node: try reader.nodeID("node"), params: try reader.optionalObject("params") ?? [:]))
        case .stackChanged:
            return .navigation(.stackChanged(navigator: NavigatorID(try reader.string("navigator")), stack: try reader.nodeIDs("stack")))
        case .sizeClassChanged:
            return .navigation(.sizeClassChanged(try reader.enumValue("horizontal", as: SizeClass.self)))
        case .presentationChanged:
            return .navigation(
                .presentationChanged(
                    node: try reader.nodeID("node"), selected: try reader.optionalString("selected"), dismissible: try reader.optionalBool("dismissible")))
        case .uiChanged:
            return .navigation(.uiChanged(node: try reader.nodeID("node"), ui: try reader.object("ui")))
        case .resultConsumed:
            return .navigation(.resultConsumed(node: try reader.nodeID("node"), screen: try reader.string("screen")))
        }
    }
}

/// Parses JSON read back from storage, with room for the nesting the core itself wrote.
enum StoredJSON {
    static func parse(_ bytes: [UInt8]) throws(SnapshotError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, maximumDepth: JSONParser.maximumDepth + 32)
        } catch {
            throw SnapshotError("not JSON: \(error)")
        }
    }
}

extension SessionEvent.Change {
    /// Whether the change holds what root flows added (and needs record format 3).
    var usesFlows: Bool {
        switch self {
        case .navigation(.flowChanged), .navigation(.paramsChanged), .navigation(.pendingChanged(.link)): true
        case .navigation(.removed(let removed)): removed.reason == .flowChanged
        default: false
        }
    }

    /// Whether the change holds what presentable state added (a base navigator or a node of a
    /// three-column split view's middle column included) (and needs record format 4).
    var usesPresentableState: Bool {
        switch self {
        case .navigation(.uiChanged), .navigation(.resultConsumed), .navigation(.presentationChanged), .navigation(.sizeClassChanged): true
        case .navigation(.added(let added)): added.title != nil || added.settings != nil || added.navigator == .supplementary
        case .navigation(.removed(let removed)): removed.navigator == .supplementary
        case .navigation(.flowChanged(let change)): change.bases.contains { $0.id == .supplementary }
        case .navigation(.stackChanged(let navigator, _)): navigator == .supplementary
        default: false
        }
    }
}
