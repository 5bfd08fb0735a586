/// A state a ``PredictingSession`` shows, and the events that led to it.
public struct ShownState: Hashable, Sendable {
    /// The state to show.
    public let state: SessionState
    /// The block of events of the change predicted to make it, in order, as the change log shows
    /// them once the server applied it (`added`, `removed`, `presented`, `listChanged`, …: what to
    /// animate); empty when the server's state replaced the one shown (a correction, a dropped
    /// change): show that state whole.
    public let events: [Event]
}
