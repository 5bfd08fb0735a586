import Locking

/// Flow analytics in memory, for a server without a store: the same rollups and paths as the
/// stores keep, gone with the process.
public final class AnalyticsMemoryStore: AnalyticsStorage {
    private struct Row {
        var updated: Double
        var trail: AnalyticsTrail
        var path: String
    }

    private struct Contents {
        var counts: [AnalyticsCount.Key: Int] = [:]
        var rows: [String: Row] = [:]
    }

    private let contents = Locked(Contents())

    /// An empty store.
    public init() {}

    public func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
        contents.withLock { contents in
            var trails: [String: AnalyticsTrail] = [:]
            var previous: String?
            for entry in entries where entry.session != previous {
                previous = entry.session
                // Taken out of its row, so that the tally changes the only copy.
                guard trails[entry.session] == nil, let trail = contents.rows[entry.session]?.trail else { continue }
                contents.rows[entry.session]!.trail = AnalyticsTrail()
                trails[entry.session] = trail
            }
            var tally = AnalyticsTally(trails: trails)
            tally.apply(entries)
            for (key, count) in tally.counts { contents.counts[key, default: 0] += count }
            for (session, trail) in tally.trails {
                let lines = tally.paths[session] ?? ""
                guard contents.rows[session] != nil else {
                    contents.rows[session] = Row(updated: updated, trail: trail, path: lines)
                    continue
                }
                // In place: the path grows without being copied.
                contents.rows[session]!.updated = max(contents.rows[session]!.updated, updated)
                contents.rows[session]!.trail = trail
                contents.rows[session]!.path += lines
            }
            return tally.samples
        }
    }

    public func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] {
        contents.withLock { contents in
            contents.counts.filter { key, _ in key.bucket >= (from ?? .min) && key.bucket < (until ?? .max) }
                .map { AnalyticsCount(key: $0.key, count: $0.value) }
        }
    }

    public func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] {
        let rows = contents.withLock { $0.rows.filter { $0.value.updated >= (updatedSince ?? -.infinity) }.mapValues(\.path) }
        return rows.map { AnalyticsPath(session: $0.key, text: $0.value) }
    }

    @discardableResult
    public func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int {
        contents.withLock { contents in
            let old = contents.rows.filter { $0.value.updated < before }.keys
            for session in old { contents.rows[session] = nil }
            return old.count
        }
    }
}
