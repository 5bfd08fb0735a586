import Dispatch
import MicroHTTP
import MinervaCoordinator

extension MinervaAPI {
    /// The longest `wait` a long poll may ask for, in seconds.
    static let maximumWait = 60

    /// `GET /v1/sessions/{id}/events?after=N&wait=S`: the events after `N`, at once or, with
    /// `wait`, as soon as one exists (up to `S` seconds; the connection holds no thread while it
    /// waits). With `Accept: text/event-stream`, the same events as server-sent events, resuming
    /// after `Last-Event-ID` (or `after`), then every new one as it happens.
    func events(_ session: Session, _ request: HTTPRequest, requestID: String) throws(APIError) -> HTTPReply {
        let wait = try Self.wholeNumber(request.queryValue("wait"), "query parameter 'wait'") ?? 0
        guard wait <= Self.maximumWait else {
            throw .invalidRequest("query parameter 'wait' is at most \(Self.maximumWait) seconds")
        }
        let lastEventID = try Self.wholeNumber(request.header("last-event-id"), "header Last-Event-ID")
        let afterQuery = try Self.wholeNumber(request.queryValue("after"), "query parameter 'after'")
        if request.header("accept")?.contains("text/event-stream") == true {
            // A reconnecting stream resumes after what it saw, whatever its URL says.
            return stream(session, after: lastEventID ?? afterQuery ?? 0)
        }
        let after = afterQuery ?? lastEventID ?? 0
        return session.state.withLock { state in
            if wait == 0 || state.tree.lastSeq > after {
                return .response(EventsDocument.response(state, after: after))
            }
            let deferred = HTTPDeferred(
                fallback: EventsDocument.response(state, after: after), headers: [("X-Request-ID", requestID)])
            state.waiters.append((after, deferred))
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(wait)) {
                session.state.withLock { state in
                    state.waiters.removeAll { $0.deferred === deferred }
                    deferred.complete(EventsDocument.response(state, after: after))
                }
            }
            return .deferred(deferred)
        }
    }

    private func stream(_ session: Session, after: Int) -> HTTPReply {
        let stream = HTTPStream()
        session.state.withLock { state in
            stream.send(Array("retry: 1000\n\n".utf8))
            let backlog = state.events.filter { $0.seq > after }
            if !backlog.isEmpty { stream.send(EventsDocument.serverSentEvents(backlog)) }
            state.subscribers.append(stream)
        }
        return .stream(
            status: 200,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
            stream)
    }

    /// A query parameter or header that must be a whole number ≥ 0; `nil` when absent.
    /// - Parameter name: how the message names it (`query parameter 'after'`).
    private static func wholeNumber(_ text: String?, _ name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text.trimmingSpaces), value >= 0 else {
            throw .invalidRequest("\(name) must be a whole number of at least 0, not \(Excerpt(text))")
        }
        return value
    }
}
