import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions

/// Writes the change log for clients: `{"events": [...], "last": N, "truncated"?: true}` for
/// `GET …/events`, and server-sent event frames for streams.
enum EventsDocument {
    /// The page's document.
    static func encode(_ page: EventPage) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + page.events.count * 128)
        writer.beginObject()
        writer.key("events")
        writer.beginArray()
        for event in page.events { event.writeWire(into: &writer) }
        writer.endArray()
        writer.field("last", page.last)
        if page.truncated { writer.field("truncated", true) }
        writer.endObject()
        return writer.bytes
    }

    /// The `200` answer with the page and the session's `ETag`.
    static func response(_ page: EventPage) -> HTTPResponse {
        MinervaAPI.json(200, encode(page), headers: [MinervaAPI.etag(page.version)])
    }

    /// Server-sent events, one per event: `id:` is the `seq`, `event:` the type, `data:` the event's JSON.
    static func serverSentEvents(_ events: some Sequence<SessionEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            bytes.append(contentsOf: "id: \(event.seq)\nevent: \(event.type)\ndata: ".utf8)
            var writer = JSONWriter(capacity: 160)
            event.writeWire(into: &writer)
            bytes.append(contentsOf: writer.bytes)
            bytes.append(contentsOf: "\n\n".utf8)
        }
        return bytes
    }
}
