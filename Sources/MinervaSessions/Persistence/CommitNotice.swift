/// A commit another process made to a shared store: which session, its newest event then, and
/// — when it fits in a notice — the change itself, which a process holding the session replays
/// without reading the store.
public struct CommitNotice: Sendable {
    /// The session id.
    public let session: String
    /// The `seq` of its newest event after the commit; 0 when it was deleted.
    public let lastEvent: Int
    /// Whether the session was deleted.
    public let deleted: Bool
    /// The committed change, when the notice carries it.
    public let change: NoticedChange?

    /// Creates a notice.
    public init(session: String, lastEvent: Int, deleted: Bool, change: NoticedChange? = nil) {
        self.session = session
        self.lastEvent = lastEvent
        self.deleted = deleted
        self.change = change
    }

    /// The notice of a committed write, carrying the change when it is a change of a session
    /// (not its creation) whose events `fits` accepts.
    public init(of write: SessionWrite, carryingIf fits: (_ events: [EventRecord]) -> Bool) {
        let carried = write.expectedLastEvent != nil && !write.newEvents.isEmpty && fits(write.newEvents)
        self.init(
            session: write.record.id, lastEvent: write.record.lastEvent, deleted: false,
            change: carried
                ? NoticedChange(
                    appVersion: write.record.appVersion, events: write.newEvents,
                    head: write.writesHead ? SessionHead(version: write.record.version, lastEvent: write.record.lastEvent) : nil)
                : nil)
    }
}

/// A committed change as a notice carries it: enough for a process that holds the session at
/// the event before it to replay it (``SessionState/replay(_:)``) and know the stored head.
public struct NoticedChange: Sendable {
    /// The app version the session runs after it.
    public let appVersion: String
    /// Its events, oldest first.
    public let events: [EventRecord]
    /// The head it wrote; `nil` when the stored head stayed as it was.
    public let head: SessionHead?

    /// Bundles a change.
    public init(appVersion: String, events: [EventRecord], head: SessionHead?) {
        self.appVersion = appVersion
        self.events = events
        self.head = head
    }
}
