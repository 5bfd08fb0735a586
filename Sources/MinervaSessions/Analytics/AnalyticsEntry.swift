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
        /// A flow finished with a result: `success` or `cancelled`.
        case flow(node: String, screen: String, status: String)
        /// The session ended: `expired` or `deleted`.
        case end(reason: String)
    }

    /// The session's id.
    public let session: String
    /// When, in milliseconds since 1970.
    public let at: Int
    /// What happened.
    public let fact: Fact

    /// Creates an entry.
    public init(session: String, at: Int, fact: Fact) {
        self.session = session
        self.at = at
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
