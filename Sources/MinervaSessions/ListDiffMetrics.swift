import Metrics

/// The list diffs' figures, through swift-metrics: how many, and how long each took.
enum ListDiffMetrics {
    private static let diffs = Counter(label: "minerva_list_diffs_total")
    private static let duration = Metrics.Timer(label: "minerva_list_diff_duration_seconds")

    /// Makes the series exist (at 0) before the first diff.
    static func prepare() {
        _ = (diffs, duration)
    }

    /// Records one diff that began at `started`.
    static func record(since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        diffs.increment()
        duration.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
