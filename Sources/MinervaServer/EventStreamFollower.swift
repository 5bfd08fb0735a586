import MicroHTTP
import MinervaSessions

/// A server-sent event stream following a session: each published block of events as frames,
/// and an `ended` frame when the session is deleted or expires.
final class EventStreamFollower: EventSubscriber {
    let stream = HTTPStream()

    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool {
        stream.send(EventsDocument.serverSentEvents(events))
    }

    func sessionEnded() {
        stream.send(Array("event: ended\ndata: {}\n\n".utf8))
        stream.finish()
    }

    var isActive: Bool { !stream.isClosed }
}
