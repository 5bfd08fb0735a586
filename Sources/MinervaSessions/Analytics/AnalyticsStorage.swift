/// Where flow analytics are kept: hourly rollups that only grow by addition, and one row per
/// session with its trail and compact path. The SQLite and PostgreSQL stores keep them in their
/// own tables; without a store, ``AnalyticsMemoryStore`` keeps them in memory.
public protocol AnalyticsStorage: Sendable {
    /// Records entries in one transaction: reads the trails of their sessions, applies the
    /// entries with ``AnalyticsTally``, writes the trails back, appends to the paths and adds
    /// to the rollups (additive upserts, so that several processes can record at once).
    /// - Parameter updated: the time to mark the sessions' rows with (seconds since 1970).
    /// - Returns: the time-on-screen samples the entries completed.
    func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample]

    /// The rolled-up counts of the hours from `from` (a bucket, included) until `until` (excluded); `nil` for no bound.
    func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount]

    /// The paths of sessions whose row changed at `updatedSince` (seconds since 1970) or later; `nil` for all.
    func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath]

    /// Forgets the paths (and trails) of sessions whose row has not changed since `before`.
    /// - Returns: how many were forgotten.
    @discardableResult
    func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int
}
