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
    /// The newest session version applied.
    public var version = 0
    /// How many steps the session's path holds (see ``AnalyticsTally/maximumPathSteps``).
    public var pathSteps = 0
    /// Entries of later versions that wait for an earlier one, recorded by another process, to be stored.
    public var pending: [AnalyticsEntry] = []

    /// An empty trail, for a session not seen before.
    public init() {}

    /// The trail as the stores keep it: five lines — the focus, the screens seen, the nodes
    /// shown, the previous focus, the version and the path's steps — then the waiting entries.
    public var text: String {
        let seenLine = seen.sorted().map(AnalyticsText.escape).joined(separator: " ")
        let shownLine = shownAt.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
        let pendingLines = pending.map { "\n" + Self.line($0) }.joined()
        return Self.line(focus) + "\n" + seenLine + "\n" + shownLine + "\n" + Self.line(previous) + "\n" + String(version) + " " + String(pathSteps) + pendingLines
    }

    private static func line(_ entry: AnalyticsEntry) -> String {
        let fields: [String]
        switch entry.fact {
        case .shown(let node, let screen): fields = ["s", node, screen]
        case .exit(let node, let screen, let reason): fields = ["x", node, screen, reason]
        case .focus(let node, let screen): fields = ["f", node, screen]
        case .flow(let node, let screen, let status): fields = ["w", node, screen, status]
        case .end(let reason): fields = ["e", reason]
        case .mark: fields = ["m"]
        }
        return ([entry.version.map(String.init) ?? "-", String(entry.at)] + fields.map(AnalyticsText.escape)).joined(separator: " ")
    }

    private static func entry(_ line: Substring, session: String) -> AnalyticsEntry? {
        let fields = AnalyticsText.split(line, on: " ").map { AnalyticsText.unescape($0) }
        guard fields.count >= 3, let at = Int(fields[1]) else { return nil }
        let fact: AnalyticsEntry.Fact
        switch (fields[2], fields.count) {
        case ("s", 5): fact = .shown(node: fields[3], screen: fields[4])
        case ("x", 6): fact = .exit(node: fields[3], screen: fields[4], reason: fields[5])
        case ("f", 5): fact = .focus(node: fields[3], screen: fields[4])
        case ("w", 6): fact = .flow(node: fields[3], screen: fields[4], status: fields[5])
        case ("e", 4): fact = .end(reason: fields[3])
        case ("m", 3): fact = .mark
        default: return nil
        }
        return AnalyticsEntry(session: session, at: at, version: Int(fields[0]), fact: fact)
    }

    private static func line(_ focus: Focus?) -> String {
        focus.map { "\($0.node) \(AnalyticsText.escape($0.screen)) \($0.since)" } ?? "-"
    }

    private static func focus(_ line: Substring) -> Focus? {
        let fields = AnalyticsText.split(line, on: " ")
        guard fields.count == 3, let since = Int(fields[2]) else { return nil }
        return Focus(node: String(fields[0]), screen: AnalyticsText.unescape(fields[1]), since: since)
    }

    /// Reads a trail of `session` from ``text``; what cannot be read is left out.
    public init(text: String, session: String) {
        let lines = AnalyticsText.split(Substring(text), on: "\n", omittingEmpty: false)
        focus = lines.first.flatMap(Self.focus)
        if lines.count > 1 { seen = Set(AnalyticsText.split(lines[1], on: " ").map { AnalyticsText.unescape($0) }) }
        if lines.count > 2 {
            for pair in AnalyticsText.split(lines[2], on: " ") {
                let parts = AnalyticsText.split(pair, on: ":")
                if parts.count == 2, let at = Int(parts[1]) { shownAt[String(parts[0])] = at }
            }
        }
        if lines.count > 3 { previous = Self.focus(lines[3]) }
        if lines.count > 4 {
            // "version steps"; a trail stored before paths were capped has the version alone.
            let counters = AnalyticsText.split(lines[4], on: " ")
            version = counters.first.flatMap { Int($0) } ?? 0
            pathSteps = counters.count > 1 ? Int(counters[1]) ?? 0 : 0
        }
        pending = lines.dropFirst(5).compactMap { Self.entry($0, session: session) }
    }
}
