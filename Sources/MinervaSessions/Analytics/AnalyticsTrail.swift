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
    /// When each node in the tree was shown.
    public var shownAt: [String: Int] = [:]
    /// The screens the session has shown.
    public var seen: Set<String> = []

    /// An empty trail, for a session not seen before.
    public init() {}

    /// The trail as the stores keep it: three lines — the focus, the screens seen, the nodes shown.
    public var text: String {
        let focusLine = focus.map { "\($0.node) \(AnalyticsText.escape($0.screen)) \($0.since)" } ?? "-"
        let seenLine = seen.sorted().map(AnalyticsText.escape).joined(separator: " ")
        let shownLine = shownAt.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
        return focusLine + "\n" + seenLine + "\n" + shownLine
    }

    /// Reads a trail from ``text``; what cannot be read is left out.
    public init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = lines.first {
            let fields = first.split(separator: " ")
            if fields.count == 3, let since = Int(fields[2]) {
                focus = Focus(node: String(fields[0]), screen: AnalyticsText.unescape(fields[1]), since: since)
            }
        }
        if lines.count > 1 { seen = Set(lines[1].split(separator: " ").map { AnalyticsText.unescape($0) }) }
        if lines.count > 2 {
            for pair in lines[2].split(separator: " ") {
                let parts = pair.split(separator: ":")
                if parts.count == 2, let at = Int(parts[1]) { shownAt[String(parts[0])] = at }
            }
        }
    }
}
