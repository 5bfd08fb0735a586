import MicroHTTP
import MinervaModel
import MinervaSessions

/// A server-sent event stream following a session: each published block of events as frames,
/// and an `ended` frame when the session is deleted or expires, or the extra token it follows
/// with is revoked.
final class EventStreamFollower: EventSubscriber {
    let stream: HTTPStream
    /// The `seq` the client has seen: a stream resumed beyond the newest event sends only newer ones.
    private let after: Int
    let grant: String?

    /// A server-sent events comment, which clients ignore: sent while the stream is idle, it finds
    /// a client that has gone and keeps proxies from closing the stream.
    static let heartbeat = Array(": keep-alive\n\n".utf8)

    /// - Parameters:
    ///   - grant: the extra token the stream follows with (`nil` for the owner's).
    ///   - closed: called once when the stream has ended or its client has gone.
    init(after: Int, grant: String?, closed: @escaping @Sendable () -> Void) {
        self.after = after
        self.grant = grant
        stream = HTTPStream(heartbeat: Self.heartbeat, onClose: closed)
    }

    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool {
        guard let newest = events.last, newest.seq > after else { return !stream.isClosed }
        return stream.send(EventsDocument.serverSentEvents(events.drop { $0.seq <= after }))
    }

    func sessionEnded() {
        stream.send(Array("event: ended\ndata: {}\n\n".utf8))
        stream.finish()
    }

    var isActive: Bool { !stream.isClosed }
}
