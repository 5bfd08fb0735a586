/// A page of a session's change log, as `GET …/events` answers it.
public struct EventPage: Sendable {
    /// The events after the asked `seq`, oldest first.
    public let events: [SessionEvent]
    /// The newest `seq` of the session (0 when none).
    public let last: Int
    /// Whether events after the asked `seq` were dropped from the log (reload the state).
    public let truncated: Bool
    /// The session version.
    public let version: Int
}

extension SessionCore {
    /// The events of a state's session after `after`: from memory when its in-memory log
    /// reaches back far enough, else from storage.
    /// - Throws: `unavailable` when storage cannot be read.
    public func eventPage(of session: LiveSession, in state: SessionState, after: Int) throws(SessionError) -> EventPage {
        var oldestKept = state.oldestKeptEvent(history: configuration.eventHistory)
        if storage == nil {
            // Without a store, what the in-memory log dropped (to keep within the session's budget) is gone.
            oldestKept = max(oldestKept, state.events.first?.seq ?? state.lastEvent + 1)
        }
        let truncated = after < oldestKept - 1 && after < state.lastEvent
        let from = max(after, oldestKept - 1)
        let inMemoryFrom = state.events.first.map { $0.seq - 1 } ?? state.lastEvent
        guard from < inMemoryFrom, let storage else {
            let start = max(0, from - inMemoryFrom)
            let events = start < state.events.count ? Array(state.events.dropFirst(start)) : []
            return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
        }
        var events: [SessionEvent] = []
        do {
            for record in try storage.events(of: session.id, after: from, limit: state.lastEvent - from) {
                events.append(try SessionEvent(record: record))
            }
        } catch {
            logger.error("could not read the events of session \(session.id) from storage: \(error)")
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "storage cannot be read right now; retry later")
        }
        return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
    }
}
