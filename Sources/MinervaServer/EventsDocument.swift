import DequeModule
import MinervaCoordinator
import MinervaJSON

/// Writes `{"events": [...], "last": N, "truncated"?: true}` for `GET …/events`.
enum EventsDocument {
    /// The events after `after`, in order.
    /// - Parameters:
    ///   - events: the session's kept events, oldest first.
    ///   - after: the `seq` the client has seen.
    ///   - last: the newest `seq` of the session.
    static func encode(_ events: Deque<NavigationEvent>, after: Int, last: Int) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + events.count * 96)
        writer.beginObject()
        writer.key("events")
        writer.beginArray()
        let oldest = events.first?.seq ?? last + 1
        let start = max(0, after + 1 - oldest)
        if start < events.count {
            for event in events[(events.startIndex + start)...] {
                write(event, into: &writer)
            }
        }
        writer.endArray()
        writer.field("last", last)
        if after + 1 < oldest, after < last {
            writer.field("truncated", true)
        }
        writer.endObject()
        return writer.bytes
    }

    private static func write(_ event: NavigationEvent, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("seq", event.seq)
        switch event.kind {
        case .removed(let reason):
            writer.field("type", "removed")
            writer.field("node", event.node.description)
            writer.field("screen", event.screen)
            writer.field("reason", reason.rawValue)
        case .finished(let parent, let result):
            writer.field("type", "finished")
            writer.field("node", event.node.description)
            writer.field("screen", event.screen)
            writer.field("parent", parent.description)
            writer.key("result")
            writer.value(result)
        }
        writer.endObject()
    }
}
