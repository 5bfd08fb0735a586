public import MinervaModel

/// A page of a session's change log, as `GET …/events` answers it.
public struct EventPage: Sendable {
    /// The events after the asked `seq`, oldest first.
    public let events: [SessionEvent]
    /// The newest `seq` of the session when the page was read, or of the block a long poll
    /// answers with (0 when none): the events always reach it.
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
