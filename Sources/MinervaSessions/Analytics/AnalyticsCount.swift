/// One rolled-up figure: how many times something happened to a screen in an hour. Rollups
/// only ever grow by addition, so several processes can add to them in any order.
public struct AnalyticsCount: Sendable, Hashable {
    /// What is counted.
    public struct Key: Sendable, Hashable, Comparable {
        /// The hour, in seconds since 1970 (a multiple of 3600).
        public let bucket: Int
        /// The screen (for a flow: the flow's screen).
        public let screen: String
        /// The figure: see ``AnalyticsMetric``.
        public let metric: String

        /// Creates a key.
        public init(bucket: Int, screen: String, metric: String) {
            self.bucket = bucket
            self.screen = screen
            self.metric = metric
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.bucket, lhs.screen, lhs.metric) < (rhs.bucket, rhs.screen, rhs.metric)
        }
    }

    /// What is counted.
    public let key: Key
    /// How many.
    public let count: Int

    /// Creates a count.
    public init(key: Key, count: Int) {
        self.key = key
        self.count = count
    }

    /// The hour bucket of a moment given in milliseconds since 1970.
    public static func bucket(ofMilliseconds at: Int) -> Int {
        let seconds = at >= 0 ? at / 1000 : (at - 999) / 1000
        return seconds - ((seconds % 3600) + 3600) % 3600
    }
}

/// The names of the rolled-up figures.
public enum AnalyticsMetric {
    /// A rolled-up figure as a value; its ``name`` is what the stores and reports read.
    enum Figure: Hashable {
        case shown
        case sessions
        case exit(String)
        case time(bin: Int)
        case flow(String)
        case flowTime(bin: Int)

        /// The figure's name, as ``AnalyticsMetric`` spells it.
        var name: String {
            switch self {
            case .shown: AnalyticsMetric.shown
            case .sessions: AnalyticsMetric.sessions
            case .exit(let reason): AnalyticsMetric.exit(reason)
            case .time(let bin): AnalyticsMetric.time(bin: bin)
            case .flow(let status): AnalyticsMetric.flow(status)
            case .flowTime(let bin): AnalyticsMetric.flowTime(bin: bin)
            }
        }
    }

    /// Times the screen was shown.
    public static let shown = "shown"
    /// Sessions that showed the screen for the first time.
    public static let sessions = "sessions"
    /// Exits of the screen for a reason: `exit.pop`, `exit.expired`, …
    public static func exit(_ reason: String) -> String { "exit." + reason }
    /// Time on screen, in the log-scale bin of ``AnalyticsBins``: `time.123`.
    public static func time(bin: Int) -> String { "time." + String(bin) }
    /// Flows finished with a status: `flow.success`, `flow.cancelled.dismiss` (`flow.cancelled`
    /// for those counted before causes were).
    public static func flow(_ status: String) -> String { "flow." + status }
    /// Time from a flow's screen shown to its finish, in a bin: `flowTime.123`.
    public static func flowTime(bin: Int) -> String { "flowTime." + String(bin) }
}
