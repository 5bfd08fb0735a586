import MicroHTTP
import MinervaModel
import MinervaSessions

/// A long poll on the change log (`GET …/events?wait=S`): answered with the events after
/// `after` as soon as one newer than it is published, or with what there is when the wait ends.
final class LongPoll: EventSubscriber {
    private let after: Int
    private let deferred: HTTPDeferred
    private let exchange: Exchange
    private let session: LiveSession

    /// - Parameter waiting: the answer now, sent if the server stops before the wait ends, or early
    ///   to free the connection when the server is full.
    init(after: Int, session: LiveSession, exchange: Exchange, waiting: HTTPResponse) {
        self.after = after
        self.session = session
        self.exchange = exchange
        exchange.waitsForEvents()
        deferred = exchange.deferred(fallback: waiting, endsEarly: true)
    }

    /// The reply to return for the request.
    var reply: HTTPReply { .deferred(deferred) }

    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool {
        guard let newest = events.last, newest.seq > after else { return true }
        // The poll waited from a state at or before `after`: every event newer than it is in this
        // block. `last` is the block's own: a catch-up publishes older blocks with the newest
        // state, and a client that reads on after `last` must not skip the blocks between.
        let page = EventPage(events: Array(events.drop { $0.seq <= after }), last: newest.seq, truncated: false, version: newest.version)
        exchange.complete(deferred, with: EventsDocument.response(page))
        return false
    }

    func sessionEnded() {
        exchange.complete(deferred, with: MinervaAPI.errorResponse(.unauthorized))
    }

    var isActive: Bool { !deferred.isCompleted }

    var grant: String? { exchange.grant?.id }

    /// The wait is over: the events there are (none newer than `after`, or the poll would be answered).
    func timeOut() {
        exchange.api.core.stopObserving(session, self)
        guard !deferred.isCompleted else { return }
        let response: HTTPResponse
        do throws(SessionError) {
            response = EventsDocument.response(try exchange.api.core.eventPage(of: session, after: after))
        } catch {
            response = MinervaAPI.errorResponse(APIError(error))
        }
        exchange.complete(deferred, with: response)
    }
}
