import MinervaCoordinator
import MinervaJSON
import MinervaModel

extension SessionEvent {
    /// The event as stored (``EventRecord``): its own members as the store names them (not the
    /// API's writer: a record may carry more than the wire shows, and the wire may change without
    /// touching stored events), in the oldest format that holds it and its checkpoint.
    var record: EventRecord {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        let format = RecordFormat.oldest(
            usesFlows: change.usesFlows, usesPresentableState: focus != nil || change.usesPresentableState, carriesCounters: counters != nil,
            numbered: device != nil, carriesDisplayMode: change.kind == .displayModeChanged, holdsLinks: change.kind == .heldLinksChanged,
            carriesOverlay: change.kind == .overlayChanged, carriesExposure: change.kind == .exposed)
        // A checkpoint of a tree with a display mode, held links or an overlay is read only by a release that knows them.
        writer.field("format", max(format, checkpoint.map(RecordFormat.oldest(holdingCheckpoint:)) ?? 0))
        writer.field("version", version)
        writer.field("at", at)
        if isFinal { writer.field("final", true) }
        if let focus { writer.field("focus", focus) }
        if let counters { counters.writeFields(into: &writer) }
        if let device { device.writeFields(into: &writer) }
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
        "presentedBy", "embedded", "reason", "result", "tab", "flags", "pending", "stack", "to", "checkpoint", "bases", "ui", "title", "sheet", "anchor", "dismissible", "selected", "horizontal", "mode", "links", "overlay", "focus", "held",
        "nextNode", "nextNavigator", "device", "deviceSeq", "experiment", "variant",
    ]

    /// Reads an event back from its record, in any format up to ``RecordFormat/current``.
    /// - Throws: ``SnapshotError`` when the record is not an event.
    init(record: EventRecord) throws(SnapshotError) {
        let value = try StoredJSON.parse(record.body)
        _ = try RecordFormat.of(value, kind: "event \(record.seq)")  // every format names an event's members alike
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.recordKeys)
            self.init(
                seq: record.seq, version: try reader.int("version"), at: try reader.int("at"), isFinal: try reader.optionalBool("final") ?? false,
                change: try Change(reader: reader, form: .record, app: nil), focus: try reader.optionalNodeID("focus"),
                counters: try IDCounters(optionalFieldsOf: reader), device: try DeviceChange(optionalFieldsOf: reader),
                checkpoint: reader.value("checkpoint").map(Self.bytes))
        } catch {
            throw SnapshotError("event \(record.seq): \(error)")
        }
    }

    /// A checkpoint's bytes, written again from the value read.
    private static func bytes(of value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.value(value)
        return writer.bytes
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
