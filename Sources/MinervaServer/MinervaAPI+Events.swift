import Dispatch
import MicroHTTP
import MinervaCoordinator
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// `GET /v1/sessions/{id}/events?after=N&wait=S`: the events after `N`, at once or, with
    /// `wait`, as soon as one newer than `N` exists (up to `S` seconds; the connection holds no
    /// thread while it waits). With an `Accept` that prefers `text/event-stream` strictly over
    /// JSON, the same events as server-sent events, resuming after `Last-Event-ID` (or `after`),
    /// then every new block as it is stored.
    func events(_ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let wait = try Self.waitSeconds(request)
        let lastEventID = try Self.wholeNumber(request.header("last-event-id"), "header Last-Event-ID")
        let afterQuery = try Self.wholeNumber(request.queryValue("after"), "query parameter 'after'")
        if AcceptHeader.prefersEventStream(request.header("accept")) {
            // A reconnecting stream resumes after what it saw, whatever its URL says.
            return try stream(session, after: lastEventID ?? afterQuery ?? 0, from: request.clientAddress, exchange)
        }
        let after = afterQuery ?? lastEventID ?? 0
        var reply: Result<HTTPReply, SessionError> = .failure(.unauthorized)
        core.observe(session, after: after) { state, page in
            guard case .success(let page) = page else {
                if case .failure(let error) = page { reply = .failure(error) }
                return nil
            }
            let now = EventsDocument.response(page)
            guard wait > 0, state.lastEvent <= after else {
                reply = .success(.response(now))
                return nil
            }
            let poll = LongPoll(after: after, session: session, exchange: exchange, waiting: now)
            reply = .success(poll.reply)
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(wait)) { poll.timeOut() }
            return poll
        }
        return try throughCore { () throws(SessionError) in try reply.get() }
    }

    /// A server-sent event stream: the backlog after `after` (a `truncated` frame first when
    /// part of it was dropped), then every new block; `429` past the streams a session or a
    /// client address may have open.
    private func stream(
        _ session: LiveSession, after: Int, from address: ClientAddressGroup?, _ exchange: Exchange
    ) throws(APIError) -> HTTPReply {
        let extraToken = exchange.grant != nil
        if let refusal = streamQuota.withLock({ $0.take(session: session.id, address: address, extraToken: extraToken) }) { throw refusal }
        let follower = EventStreamFollower(after: after, grant: exchange.grant?.id) { [streamQuota, core, id = session.id] in
            streamQuota.withLock { $0.release(session: id, address: address, extraToken: extraToken) }
            core.forgetInactiveObservers(of: id)
        }
        var failure: SessionError?
        core.observe(session, after: after) { _, result in
            let page: EventPage
            switch result {
            case .success(let found): page = found
            case .failure(let error):
                failure = error
                return nil
            case nil: return nil
            }
            follower.stream.send(Array("retry: 1000\n\n".utf8))
            if page.truncated {
                follower.stream.send(Array("event: truncated\ndata: {\"last\":\(page.last)}\n\n".utf8))
            }
            if !page.events.isEmpty { follower.stream.send(EventsDocument.serverSentEvents(page.events)) }
            return follower
        }
        if let failure {
            follower.stream.cancel()  // gives its place back
            throw APIError(failure)
        }
        exchange.waitsForEvents()
        return .stream(
            status: 200,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
            follower.stream)
    }
}
