public import MinervaSessions

extension PostgresSessionStorage: AnalyticsStorage {
    /// The analytics tables: rollups keyed by hour, screen and figure, which every instance adds
    /// to; one row per session with its trail and compact path.
    static let analyticsMigration = """
        CREATE TABLE minerva_analytics_count (
            bucket bigint NOT NULL,
            screen text NOT NULL,
            metric text NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (bucket, screen, metric)
        );
        CREATE TABLE minerva_analytics_path (
            session text PRIMARY KEY,
            updated double precision NOT NULL,
            trail text NOT NULL,
            path text NOT NULL
        );
        CREATE INDEX minerva_analytics_path_updated ON minerva_analytics_path (updated);
        """

    public func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
        let sessions = Set(entries.map(\.session)).sorted()
        return try transaction { connection, deadline throws(PostgresError) -> [AnalyticsSample] in
            // Every session gets its row first, so that the lock below always has a row to take
            // (two instances must not both start one); rows are locked in id order, and counts
            // added in key order, so that instances recording at once wait rather than deadlock.
            try connection.query(
                "INSERT INTO minerva_analytics_path (session, updated, trail, path) SELECT unnest($1::text[]), $2, '', '' ON CONFLICT DO NOTHING",
                [.textArray(sessions), .double(updated)], until: deadline)
            let rows = try connection.query(
                "SELECT session, trail FROM minerva_analytics_path WHERE session = ANY($1::text[]) ORDER BY session FOR UPDATE",
                [.textArray(sessions)], until: deadline)
            var trails: [String: AnalyticsTrail] = [:]
            for row in 0..<rows.count { trails[rows.text(row, 0)] = AnalyticsTrail(text: rows.text(row, 1), session: rows.text(row, 0)) }
            var tally = AnalyticsTally(trails: trails)
            tally.apply(entries)
            for session in sessions {
                guard let trail = tally.trails[session] else { continue }
                try connection.query(
                    """
                    INSERT INTO minerva_analytics_path (session, updated, trail, path) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (session) DO UPDATE SET updated = GREATEST(minerva_analytics_path.updated, EXCLUDED.updated),
                    trail = EXCLUDED.trail, path = minerva_analytics_path.path || EXCLUDED.path
                    """, [.text(session), .double(updated), .text(trail.text), .text(tally.paths[session] ?? "")], until: deadline)
            }
            for (key, count) in tally.counts.sorted(by: { $0.key < $1.key }) {
                try connection.query(
                    """
                    INSERT INTO minerva_analytics_count (bucket, screen, metric, count) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (bucket, screen, metric) DO UPDATE SET count = minerva_analytics_count.count + EXCLUDED.count
                    """, [.int(key.bucket), .text(key.screen), .text(key.metric), .int(count)], until: deadline)
            }
            return tally.samples
        }
    }

    public func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT bucket, screen, metric, count FROM minerva_analytics_count WHERE bucket >= $1 AND bucket < $2",
                [.int(from ?? Int.min), .int(until ?? Int.max)], until: deadline)
            return (0..<rows.count).map { row in
                AnalyticsCount(
                    key: AnalyticsCount.Key(bucket: rows.int(row, 0), screen: rows.text(row, 1), metric: rows.text(row, 2)), count: rows.int(row, 3))
            }
        }
    }

    public func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT session, path FROM minerva_analytics_path WHERE updated >= $1", [.double(updatedSince ?? -Double.infinity)],
                until: deadline)
            return (0..<rows.count).map { AnalyticsPath(session: rows.text($0, 0), text: rows.text($0, 1)) }
        }
    }

    @discardableResult
    public func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int {
        try call { connection, deadline throws(PostgresError) in
            try connection.query("DELETE FROM minerva_analytics_path WHERE updated < $1", [.double(before)], until: deadline).affected
        }
    }
}
