/// A session's compact path as the stores keep it: one line per screen shown, per node that
/// left the tree, and for the session's end — what funnels are counted over. A path keeps a
/// session's first ``AnalyticsTally/maximumPathSteps`` steps; a `truncated` step follows them.
public struct AnalyticsPath: Sendable, Equatable {
    /// One step of a path.
    public struct Step: Sendable, Equatable {
        /// What happened.
        public enum Kind: Sendable, Equatable {
            /// The node came on screen.
            case shown
            /// The node left the tree for `reason`, while `from` was the focus.
            case exit(reason: String, from: String)
            /// The session ended for `reason` (`expired`, `deleted`) while `screen` was the focus.
            case end(reason: String)
            /// The path holds no more of the session: it reached its length limit while `screen`
            /// was the focus.
            case truncated
        }

        /// When, in milliseconds since 1970.
        public let at: Int
        public let kind: Kind
        /// The node (`-` for the session's end and for `truncated`).
        public let node: String
        /// The node's screen (for the session's end and `truncated`: the screen in focus).
        public let screen: String
    }

    /// The session's id.
    public let session: String
    /// Its steps, oldest first.
    public let steps: [Step]

    /// Reads a path from the stores' text; lines that cannot be read are left out.
    /// - Complexity: O(n) in the text's length, and O(s log s) to order its steps when lines
    ///   were appended out of order by several processes.
    public init(session: String, text: String) {
        self.session = session
        var steps: [Step] = []
        var ordered = true
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count >= 4, let at = Int(Substring(fields[0])) else { continue }
            let node = String(Substring(fields[2]))
            let screen = AnalyticsText.unescape(Substring(fields[3]))
            let kind: Step.Kind
            switch (fields[1].first, fields.count) {
            case (UInt8(ascii: "s"), _): kind = .shown
            case (UInt8(ascii: "x"), 6):
                kind = .exit(reason: AnalyticsText.unescape(Substring(fields[4])), from: AnalyticsText.unescape(Substring(fields[5])))
            case (UInt8(ascii: "e"), 5): kind = .end(reason: AnalyticsText.unescape(Substring(fields[4])))
            case (UInt8(ascii: "t"), 4): kind = .truncated
            default: continue
            }
            if let last = steps.last, last.at > at { ordered = false }
            steps.append(Step(at: at, kind: kind, node: node, screen: screen))
        }
        if !ordered {
            steps = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        }
        self.steps = steps
    }
}
