import Dispatch
import MicroHTTP
import MinervaModel
import MinervaSessions

/// `GET /v1/sessions/{id}?wait=S` with `If-None-Match`: answered with the new state as soon as
/// the version moves, or `304` when the wait ends.
final class StateWait: EventSubscriber {
    private let deferred: HTTPDeferred
    private let exchange: Exchange
    private let session: LiveSession
    private let encode: @Sendable (SessionState) -> HTTPResponse

    /// - Parameters:
    ///   - version: the version the client has: `304` names it if the server stops before the wait ends.
    ///   - encode: the `200` answer for a state.
    init(session: LiveSession, version: Int, exchange: Exchange, encode: @escaping @Sendable (SessionState) -> HTTPResponse) {
        self.session = session
        self.exchange = exchange
        exchange.waitsForEvents()
        self.encode = encode
        deferred = exchange.deferred(fallback: MinervaAPI.notModified(version: version), endsEarly: true)
    }

    /// The reply to return for the request.
    var reply: HTTPReply { .deferred(deferred) }

    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool {
        // Encoded elsewhere: the core calls this on its storage writer, holding the session's lock.
        DispatchQueue.global().async { [exchange, deferred, encode] in exchange.complete(deferred, with: encode(state)) }
        return false
    }

    func sessionEnded() {
        exchange.complete(deferred, with: MinervaAPI.errorResponse(.unauthorized))
    }

    var isActive: Bool { !deferred.isCompleted }

    var grant: String? { exchange.grant?.id }

    /// The wait is over with no new version: `304`.
    func timeOut(version: Int) {
        exchange.api.core.stopObserving(session, self)
        exchange.complete(deferred, with: MinervaAPI.notModified(version: version))
    }
}
