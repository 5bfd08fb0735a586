import Metrics

/// What keeping in step with a store other processes write costs, through swift-metrics: the
/// commits of other processes this one heard of, the changes they carried that this one replayed
/// on the sessions it holds, the sessions brought up to date because the store held a newer state than this process (another
/// process's change, or this one's own write read back before its answer came; before serving,
/// after a write conflicted, or to publish a change to followers here; by replaying the events
/// missed, or reading the session whole), and the writes refused because another process
/// changed the session first (each runs again on what is stored).
enum SharedStoreMetrics {
    private static let notices = Counter(label: "minerva_store_commit_notices_total")
    private static let replays = Counter(label: "minerva_store_changes_replayed_total")
    private static let reloads = Counter(label: "minerva_store_session_reloads_total")
    private static let conflicts = Counter(label: "minerva_store_write_conflicts_total")

    /// Makes the series exist (at 0) before the first of each.
    static func prepare() {
        _ = (notices, replays, reloads, conflicts)
    }

    /// Counts one commit notice heard.
    static func noticeHeard() {
        notices.increment()
    }

    /// Counts one change of another process replayed from its notice.
    static func changeReplayed() {
        replays.increment()
    }

    /// Counts one session brought up to date with the store, found newer than this process had it.
    static func reloaded() {
        reloads.increment()
    }

    /// Counts one write refused because another process changed the session first.
    static func conflicted() {
        conflicts.increment()
    }
}
