import Metrics

/// How many commits of other processes this one heard of, through swift-metrics: with a shared
/// store, each process hears only of the sessions someone there follows.
enum CommitNoticeMetrics {
    private static let heard = Counter(label: "minerva_store_commit_notices_total")

    /// Makes the series exist (at 0) before the first notice.
    static func prepare() {
        _ = heard
    }

    /// Counts one notice heard.
    static func record() {
        heard.increment()
    }
}
