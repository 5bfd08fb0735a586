import Locking
import Metrics

/// The analytics figures of `/metrics`: screens shown and time on screen by screen (screens are
/// the app's own, a bounded set), and analytics writes that failed or were dropped.
final class AnalyticsMetrics: Sendable {
    private let shownCounters = Locked<[String: Counter]>([:])
    private let timeTimers = Locked<[String: Metrics.Timer]>([:])
    private let failures = Counter(label: "minerva_analytics_write_failures_total")
    private let dropped = Counter(label: "minerva_analytics_entries_dropped_total")

    /// Counts the screens shown in a batch of entries (on the writer's thread, under one lock).
    func shown(in entries: [AnalyticsEntry]) {
        var shown: [String: Int] = [:]
        for entry in entries {
            if case .shown(_, let screen) = entry.fact { shown[screen, default: 0] += 1 }
        }
        guard !shown.isEmpty else { return }
        let counters = shownCounters.withLock { counters in
            shown.map { screen, count in
                if let counter = counters[screen] { return (counter, count) }
                let counter = Counter(label: "minerva_screen_shown_total", dimensions: [("screen", screen)])
                counters[screen] = counter
                return (counter, count)
            }
        }
        for (counter, count) in counters { counter.increment(by: count) }
    }

    /// Records how long screens were the focus.
    func timeOnScreen(_ samples: [AnalyticsSample]) {
        guard !samples.isEmpty else { return }
        // The timers of the batch's screens, under one lock.
        let timers = timeTimers.withLock { timers in
            samples.map { sample in
                if let timer = timers[sample.screen] { return timer }
                let timer = Metrics.Timer(label: Self.timeOnScreenLabel, dimensions: [("screen", sample.screen)])
                timers[sample.screen] = timer
                return timer
            }
        }
        for (timer, sample) in zip(timers, samples) { timer.recordMilliseconds(sample.milliseconds) }
    }

    /// Counts a batch the store refused.
    func failed() { failures.increment() }

    /// Counts entries left out because the store fell too far behind.
    func dropped(_ count: Int) { dropped.increment(by: count) }

    /// The label of the time-on-screen histogram (the executable gives it buckets fit for screens).
    static let timeOnScreenLabel = "minerva_screen_time_seconds"
}
