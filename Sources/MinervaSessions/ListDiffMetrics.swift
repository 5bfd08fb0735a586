import Metrics
import MinervaModel

/// The list diffs' figures, through swift-metrics: how many, and how long each took.
enum ListDiffMetrics {
    private static let diffs = Counter(label: "minerva_list_diffs_total")
    private static let duration = Metrics.Timer(label: "minerva_list_diff_duration_seconds")

    /// Makes the series exist (at 0) before the first diff.
    static func prepare() {
        _ = (diffs, duration)
    }

    /// Records the diffs of a change's block, from the step that began at `started`: one per list
    /// the block changed, each taking its share of the step's time (the diff is most of a list's step).
    static func record(_ block: [SessionEvent], since started: ContinuousClock.Instant) {
        let lists = block.reduce(0) { count, event in if case .listChanged = event.change { count + 1 } else { count } }
        guard lists > 0 else { return }
        let elapsed = ContinuousClock.now - started
        let nanoseconds = (elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000) / Int64(lists)
        for _ in 0..<lists {
            diffs.increment()
            duration.recordNanoseconds(nanoseconds)
        }
    }
}
