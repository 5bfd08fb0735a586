import DequeModule
import MicroHTTP
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
        // Written so that no `after`, however large, can overflow.
        let start = after >= oldest ? after - oldest + 1 : 0
        if start < events.count {
            for event in events[(events.startIndex + start)...] {
                write(event, into: &writer)
            }
        }
        writer.endArray()
        writer.field("last", last)
        if after < oldest - 1, after < last {
            writer.field("truncated", true)
        }
        writer.endObject()
        return writer.bytes
    }

    /// The `200` answer with the events after `after` and the session's `ETag`.
    static func response(_ state: SessionState, after: Int) -> HTTPResponse {
        MinervaAPI.json(
            200, encode(state.events, after: after, last: state.tree.lastSeq), headers: [MinervaAPI.etag(state.version)])
    }

    /// Server-sent events, one per event: `id:` is the `seq`, `data:` the event's JSON.
    static func serverSentEvents<Events: Sequence<NavigationEvent>>(_ events: Events) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            bytes.append(contentsOf: "id: \(event.seq)\nevent: \(eventType(event))\ndata: ".utf8)
            var writer = JSONWriter(capacity: 128)
            write(event, into: &writer)
            bytes.append(contentsOf: writer.bytes)
            bytes.append(contentsOf: "\n\n".utf8)
        }
        return bytes
    }

    private static func eventType(_ event: NavigationEvent) -> String {
        if case .removed = event.kind { "removed" } else { "finished" }
    }

    private static func write(_ event: NavigationEvent, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("seq", event.seq)
        switch event.kind {
        case .removed(let reason):
            writer.field("type", "removed")
            writer.field("node", event.node)
            writer.field("screen", event.screen)
            writer.field("reason", reason.rawValue)
        case .finished(let parent, let result):
            writer.field("type", "finished")
            writer.field("node", event.node)
            writer.field("screen", event.screen)
            writer.field("parent", parent)
            writer.key("result")
            writer.value(result)
        }
        writer.endObject()
    }
}
