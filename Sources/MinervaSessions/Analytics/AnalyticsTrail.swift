/// What analytics remembers of one session between its changes, kept in the store beside the
/// session's path: the focus and since when, when each node in the tree was shown (for the
/// time a flow takes), and the screens the session has shown (to count each session once).
public struct AnalyticsTrail: Sendable, Equatable {
    /// The node in focus, its screen, and since when (milliseconds since 1970).
    public struct Focus: Sendable, Equatable {
        public var node: String
        public var screen: String
        public var since: Int
    }

    /// The focus; `nil` before the first one and after the session ended.
    public var focus: Focus?
    /// The focus before it, so that a change recorded late (by another process) can correct
    /// the time counted for it.
    public var previous: Focus?
    /// When each node in the tree was shown.
    public var shownAt: [String: Int] = [:]
    /// The screens the session has shown.
    public var seen: Set<String> = []

    /// An empty trail, for a session not seen before.
    public init() {}

    /// The trail as the stores keep it: four lines — the focus, the screens seen, the nodes
    /// shown, the previous focus.
    public var text: String {
        let seenLine = seen.sorted().map(AnalyticsText.escape).joined(separator: " ")
        let shownLine = shownAt.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
        return Self.line(focus) + "\n" + seenLine + "\n" + shownLine + "\n" + Self.line(previous)
    }

    private static func line(_ focus: Focus?) -> String {
        focus.map { "\($0.node) \(AnalyticsText.escape($0.screen)) \($0.since)" } ?? "-"
    }

    private static func focus(_ line: Substring) -> Focus? {
        let fields = line.split(separator: " ")
        guard fields.count == 3, let since = Int(fields[2]) else { return nil }
        return Focus(node: String(fields[0]), screen: AnalyticsText.unescape(fields[1]), since: since)
    }

    /// Reads a trail from ``text``; what cannot be read is left out.
    public init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        focus = lines.first.flatMap(Self.focus)
        if lines.count > 1 { seen = Set(lines[1].split(separator: " ").map { AnalyticsText.unescape($0) }) }
        if lines.count > 2 {
            for pair in lines[2].split(separator: " ") {
                let parts = pair.split(separator: ":")
                if parts.count == 2, let at = Int(parts[1]) { shownAt[String(parts[0])] = at }
            }
        }
        if lines.count > 3 { previous = Self.focus(lines[3]) }
    }
}
