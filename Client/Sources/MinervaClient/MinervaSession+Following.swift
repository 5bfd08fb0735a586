extension MinervaSession {
    /// How long a long poll waits for a change before it answers that there was none.
    static let longPollSeconds = 25

    /// Follows the session's change log: every event after `after`, as it is stored.
    /// - Parameters:
    ///   - after: the `seq` of the last event the app has seen; the ``state``'s `lastEvent`
    ///     when nil.
    ///   - delivery: server-sent events (the default, with the long poll as its fallback), or
    ///     the long poll only.
    /// - Returns: the changes; iterate them in a task, and cancel it to stop.
    public func changes(after: Int? = nil, delivery: SessionChanges.Delivery = .serverSentEvents) -> SessionChanges {
        SessionChanges(session: self, after: after ?? state.lastEvent, delivery: delivery)
    }

    /// Follows the session's state: every state newer than ``version``, by long poll
    /// (`GET …?wait=` with `If-None-Match`).
    /// - Returns: the states; iterate them in a task, and cancel it to stop.
    public nonisolated func states() -> SessionStates {
        SessionStates(session: self)
    }

    /// Opens the event stream after the event `lastEventID`.
    /// - Returns: the stream, or a page of events when the answer was not a stream (a proxy
    ///   that dropped `Accept`).
    func eventStream(after lastEventID: Int) async throws -> Operations.GetEvents.Output.Ok.Body {
        try await client.getEvents(
            path: .init(id: id), headers: .init(lastEventID: Int64(lastEventID), accept: [.init(contentType: .textEventStream)])
        ).ok.body
    }

    /// The events after `after`, waiting for the next one when there is none yet.
    func events(after: Int) async throws -> Components.Schemas.EventsPage {
        try await client.getEvents(
            path: .init(id: id), query: .init(after: Int64(after), wait: Self.longPollSeconds),
            headers: .init(accept: [.init(contentType: .json)])
        ).ok.body.json
    }

    /// The state once its version moves past ``version``, or nil when it did not move in time.
    func nextState() async throws -> SessionState? {
        let output = try await client.getSession(
            path: .init(id: id), query: .init(wait: Self.longPollSeconds), headers: .init(ifNoneMatch: ifMatch))
        if case .notModified = output { return nil }
        let state = try output.ok.body.json.value1
        received(state)
        return state
    }
}
