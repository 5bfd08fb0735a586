public import MinervaModel

/// Something that follows a session's change log: a long poll, a server-sent event stream, a
/// wait for a new version. The HTTP layer implements it; the core calls it while it holds the
/// session's lock, so it must only hand the events on, never block.
public protocol EventSubscriber: AnyObject, Sendable {
    /// A mutation's block of events was stored and published, with the state it produced.
    /// - Returns: whether to keep following (`false` unsubscribes, say after answering a long poll).
    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool

    /// The session is gone (deleted or expired): nothing more will come.
    func sessionEnded()

    /// Whether the subscriber still listens (a stream whose client left does not).
    var isActive: Bool { get }

    /// The id of the extra token it follows with (``TokenGrant/id``), `nil` for the owner's: its
    /// revocation ends it (``sessionEnded()``).
    var grant: String? { get }
}

extension EventSubscriber {
    /// A subscriber that follows with no extra token (the owner's, or the core's own).
    public var grant: String? { nil }
}
