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

    /// Creates a page.
    public init(events: [SessionEvent], last: Int, truncated: Bool, version: Int) {
        self.events = events
        self.last = last
        self.truncated = truncated
        self.version = version
    }
}

extension SessionCore {
    /// The events of a session after `after`: from memory when its in-memory log reaches back
    /// far enough, else from storage.
    /// - Throws: `unauthorized` for a session that is gone, `unavailable` when storage cannot be read.
    public func eventPage(of session: LiveSession, after: Int) throws(SessionError) -> EventPage {
        try session.slot.withLock { slot throws(SessionError) in
            guard !slot.gone else { throw .unauthorized }
            return try page(of: session, slot.state, slot.log, after: after)
        }
    }

    /// The page of a session's log after `after`, given its state and in-memory log.
    func page(of session: LiveSession, _ state: SessionState, _ log: SessionLog, after: Int) throws(SessionError) -> EventPage {
        let oldestKept = state.oldestKeptEvent(history: configuration.eventHistory)
        var truncated = after < oldestKept - 1 && after < state.lastEvent
        let from = max(after, oldestKept - 1)
        let inMemoryFrom = log.events.first.map { $0.seq - 1 } ?? state.lastEvent
        guard from < inMemoryFrom else {
            let start = max(0, from - inMemoryFrom)
            let events = start < log.events.count ? Array(log.events.dropFirst(start)) : []
            return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
        }
        var events: [SessionEvent] = []
        do {
            for record in try store.events(of: session.id, after: from, through: state.lastEvent) {
                events.append(try SessionEvent(record: record))
            }
        } catch {
            logger.error("could not read the events of session \(session.id) from storage: \(error)")
            throw .storeUnreadable
        }
        // A write in flight may have dropped old events from the store since the state was read.
        if let first = events.first?.seq, first > from + 1 { truncated = true }
        return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
    }
}
