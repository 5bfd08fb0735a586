import MinervaList
import MinervaModel

/// An event as the memory store keeps it: the value a session core wrote, shared with the
/// session's log and encoded only when it is read, or a record written as one.
enum KeptEvent: Sendable {
    /// A value, boxed: the store's array of events stays small to move.
    case value(Boxed<SessionEvent>)
    case record(EventRecord)

    /// An event kept as its value.
    static func keeping(_ event: SessionEvent) -> KeptEvent {
        .value(Boxed(event))
    }

    var seq: Int {
        switch self {
        case .value(let event): event.value.seq
        case .record(let record): record.seq
        }
    }

    /// Whether it carries a checkpoint of the session's state (see ``EventRecord/carriesCheckpoint``).
    var carriesCheckpoint: Bool {
        switch self {
        case .value(let event): event.value.checkpoint != nil
        case .record(let record): record.carriesCheckpoint
        }
    }

    /// The session version it made, when known.
    var version: Int? {
        switch self {
        case .value(let event): event.value.version
        case .record(let record): record.version
        }
    }

    /// What it counts against its session's history budget: a record's bytes, a value's
    /// approximate size (``SessionEvent/approximateByteCount``).
    var byteCount: Int {
        switch self {
        case .value(let event): event.value.approximateByteCount
        case .record(let record): record.body.count
        }
    }

    /// It as a record, encoded now when it is a value.
    var record: EventRecord {
        switch self {
        case .value(let event): event.value.record
        case .record(let record): record
        }
    }
}

/// A list version as the memory store keeps it: the content a session core wrote, shared with
/// the session's state and encoded only when it is read, or a record written as one.
enum KeptList: Sendable {
    case value(version: Int, content: ListContent)
    case record(ListRecord)

    var version: Int {
        switch self {
        case .value(let version, _): version
        case .record(let record): record.version
        }
    }

    /// What it counts against its session's history budget: a record's bytes, a value's size
    /// (``ListContent/byteCount``).
    var byteCount: Int {
        switch self {
        case .value(_, let content): content.byteCount
        case .record(let record): record.body.count
        }
    }

    /// It as a record of `node`'s list, encoded now when it is a value.
    func record(node: String) -> ListRecord {
        switch self {
        case .value(let version, let content): ListRecord(node: node, version: version, body: content.recordBytes)
        case .record(let record): record
        }
    }
}

/// A value behind one reference.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
