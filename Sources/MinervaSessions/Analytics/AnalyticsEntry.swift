/// One fact flow analytics keeps about a session: a screen shown, a screen leaving, the focus
/// moving, a flow finishing, or the session ending. The session core makes them from the
/// changes this process commits (each change is recorded once, by the process that stored it).
public struct AnalyticsEntry: Sendable, Hashable {
    /// What happened.
    public enum Fact: Sendable, Hashable {
        /// A node came on screen (an `added` event, or the session's first tree).
        case shown(node: String, screen: String)
        /// A node left the tree, for this removal reason (`pop`, `dismiss`, `finish`, …).
        case exit(node: String, screen: String, reason: String)
        /// The node became the focus: the screen the user looks at.
        case focus(node: String, screen: String)
        /// A flow finished with a result: `success`, or `cancelled.<cause>` (the removal reason
        /// that took it, `finish` for its own).
        case flow(node: String, screen: String, status: String)
        /// The session ended: `expired` or `deleted`.
        case end(reason: String)
        /// A change with nothing to count (a list, a flag), so that the versions after it wait for none.
        case mark
    }

    /// The session's id.
    public let session: String
    /// When, in milliseconds since 1970.
    public let at: Int
    /// The session version of the change; `nil` when it comes after every other (an expiry
    /// found in the store). Entries are applied in version order, whichever process stores first.
    public let version: Int?
    /// What happened.
    public let fact: Fact

    /// Creates an entry.
    public init(session: String, at: Int, version: Int? = nil, fact: Fact) {
        self.session = session
        self.at = at
        self.version = version
        self.fact = fact
    }
}

/// A time-on-screen measurement: how long a screen was the focus.
public struct AnalyticsSample: Sendable, Hashable {
    /// The screen.
    public let screen: String
    /// For how long, in milliseconds.
    public let milliseconds: Int

    /// Creates a sample.
    public init(screen: String, milliseconds: Int) {
        self.screen = screen
        self.milliseconds = milliseconds
    }
}
