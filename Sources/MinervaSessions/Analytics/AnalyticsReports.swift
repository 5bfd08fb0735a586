/// The figures of one screen over a period.
public struct ScreenFigures: Sendable, Equatable {
    public let screen: String
    /// Times it was shown.
    public let shown: Int
    /// Sessions that showed it (each counted in the hour it first did).
    public let sessions: Int
    /// Exits by reason: every removal reason, and `expired` and `deleted` for the screen in focus
    /// when its session ended.
    public let exits: [String: Int]
    /// Time as the focus.
    public let timeOnScreen: DurationFigures
}

/// The figures of one flow (a screen that finished with a result) over a period.
public struct FlowFigures: Sendable, Equatable {
    public let screen: String
    public let success: Int
    public let cancelled: Int
    /// Cancellations by cause: the removal reason that took the flow (`dismiss`, `pop`,
    /// `setRoot`, `deepLink`), or `finish` for a flow that finished as cancelled itself.
    /// Cancellations counted before causes were recorded are in ``cancelled`` only.
    public let cancelledBy: [String: Int]
    /// Time from the flow's screen shown to its finish.
    public let timeToFinish: DurationFigures
}

/// How long something took, from log-scale bins (within about 2%).
public struct DurationFigures: Sendable, Equatable {
    /// How many durations.
    public let samples: Int
    /// The median and 90th percentile in seconds; `nil` without samples.
    public let median: Double?
    public let p90: Double?

    init(bins: [Int: Int]) {
        samples = bins.values.reduce(0, +)
        median = AnalyticsBins.quantile(0.5, of: bins)
        p90 = AnalyticsBins.quantile(0.9, of: bins)
    }
}

/// The screens and flows reports, from rolled-up counts.
public enum AnalyticsReports {
    /// Per screen: shown, sessions, exits by reason, time on screen; most shown first.
    public static func screens(_ counts: [AnalyticsCount]) -> [ScreenFigures] {
        var shown: [String: Int] = [:]
        var sessions: [String: Int] = [:]
        var exits: [String: [String: Int]] = [:]
        var times: [String: [Int: Int]] = [:]
        for count in counts {
            let (screen, metric) = (count.key.screen, count.key.metric)
            if metric == AnalyticsMetric.shown {
                shown[screen, default: 0] += count.count
            } else if metric == AnalyticsMetric.sessions {
                sessions[screen, default: 0] += count.count
            } else if let reason = metric.suffix(after: "exit.") {
                exits[screen, default: [:]][reason, default: 0] += count.count
            } else if let bin = metric.suffix(after: "time.").flatMap({ Int($0) }) {
                times[screen, default: [:]][bin, default: 0] += count.count
            }
        }
        let names = Set(shown.keys).union(exits.keys).union(times.keys)
        return names.map { screen in
            ScreenFigures(
                screen: screen, shown: shown[screen] ?? 0, sessions: sessions[screen] ?? 0, exits: exits[screen] ?? [:],
                timeOnScreen: DurationFigures(bins: times[screen] ?? [:]))
        }.sorted { ($1.shown, $0.screen) < ($0.shown, $1.screen) }
    }

    /// Per flow: successes, cancellations and time to finish; most finished first.
    public static func flows(_ counts: [AnalyticsCount]) -> [FlowFigures] {
        var finished: [String: [String: Int]] = [:]
        var times: [String: [Int: Int]] = [:]
        for count in counts {
            if let status = count.key.metric.suffix(after: "flow.") {
                finished[count.key.screen, default: [:]][status, default: 0] += count.count
            } else if let bin = count.key.metric.suffix(after: "flowTime.").flatMap({ Int($0) }) {
                times[count.key.screen, default: [:]][bin, default: 0] += count.count
            }
        }
        return finished.map { screen, statuses in
            var cancelled = 0
            var causes: [String: Int] = [:]
            for (status, count) in statuses where status == "cancelled" || status.hasPrefix("cancelled.") {
                cancelled += count
                if let cause = status.suffix(after: "cancelled.") { causes[cause, default: 0] += count }
            }
            return FlowFigures(
                screen: screen, success: statuses["success"] ?? 0, cancelled: cancelled, cancelledBy: causes,
                timeToFinish: DurationFigures(bins: times[screen] ?? [:]))
        }.sorted { ($1.success + $1.cancelled, $0.screen) < ($0.success + $0.cancelled, $1.screen) }
    }
}

extension String {
    /// The rest of the string after `prefix`, when it starts with it.
    fileprivate func suffix(after prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
