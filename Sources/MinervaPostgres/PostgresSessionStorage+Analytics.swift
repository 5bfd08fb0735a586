public import MinervaSessions

extension PostgresSessionStorage: AnalyticsStorage {
    /// The analytics tables: rollups keyed by hour, screen and figure, which every instance adds
    /// to; one row per session with its trail; its path as the lines of each batch, appended
    /// as rows of their own (a long path is never rewritten).
    static let analyticsMigration = """
        CREATE TABLE minerva_analytics_count (
            bucket bigint NOT NULL,
            screen text NOT NULL,
            metric text NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (bucket, screen, metric)
        );
        CREATE TABLE minerva_analytics_session (
            session text PRIMARY KEY,
            updated double precision NOT NULL,
            trail text NOT NULL
        );
        CREATE INDEX minerva_analytics_session_updated ON minerva_analytics_session (updated);
        CREATE TABLE minerva_analytics_path (
            id bigserial PRIMARY KEY,
            session text NOT NULL,
            lines text NOT NULL
        );
        CREATE INDEX minerva_analytics_path_session ON minerva_analytics_path (session);
        """

    public func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
        let sessions = Set(entries.map(\.session)).sorted()
        return try transaction { connection, deadline throws(PostgresError) -> [AnalyticsSample] in
            // Every session gets its row first, so that the lock below always has a row to take
            // (two instances must not both start one), and marks it recent at once, so that a
            // prune running meanwhile waits for this transaction and then keeps it; rows are locked
            // in id order, and counts added in key order, so that instances wait rather than deadlock.
            try connection.query(
                """
                INSERT INTO minerva_analytics_session (session, updated, trail) SELECT unnest($1::text[]), $2, ''
                    ON CONFLICT (session) DO UPDATE SET updated = EXCLUDED.updated
                """,
                [.textArray(sessions), .double(updated)], until: deadline)
            let rows = try connection.query(
                "SELECT session, trail FROM minerva_analytics_session WHERE session = ANY($1::text[]) ORDER BY session FOR UPDATE",
                [.textArray(sessions)], until: deadline)
            var trails: [String: AnalyticsTrail] = [:]
            for row in 0..<rows.count { trails[rows.text(row, 0)] = AnalyticsTrail(text: rows.text(row, 1), session: rows.text(row, 0)) }
            var tally = AnalyticsTally(trails: trails)
            tally.apply(entries)
            for session in sessions {
                guard let trail = tally.trails[session] else { continue }
                try connection.query(
                    "UPDATE minerva_analytics_session SET updated = GREATEST(updated, $2), trail = $3 WHERE session = $1",
                    [.text(session), .double(updated), .text(trail.text)], until: deadline)
                if let lines = tally.paths[session] {
                    try connection.query(
                        "INSERT INTO minerva_analytics_path (session, lines) VALUES ($1, $2)", [.text(session), .text(lines)], until: deadline)
                }
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
        try report { connection, deadline throws(PostgresError) in
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
        try report { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                SELECT path.session, path.lines FROM minerva_analytics_path AS path JOIN minerva_analytics_session AS session USING (session)
                WHERE session.updated >= $1 ORDER BY path.id
                """, [.double(updatedSince ?? -Double.infinity)], until: deadline)
            var texts: [String: String] = [:]
            for row in 0..<rows.count { texts[rows.text(row, 0), default: ""] += rows.text(row, 1) }
            return texts.map { AnalyticsPath(session: $0.key, text: $0.value) }
        }
    }

    @discardableResult
    public func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int {
        try transaction { connection, deadline throws(PostgresError) in
            try connection.query(
                "DELETE FROM minerva_analytics_path WHERE session IN (SELECT session FROM minerva_analytics_session WHERE updated < $1)",
                [.double(before)], until: deadline)
            return try connection.query("DELETE FROM minerva_analytics_session WHERE updated < $1", [.double(before)], until: deadline).affected
        }
    }

    /// How long a report's read may take: it reads every kept path, longer than a session's call may.
    static let reportTimeout = Duration.seconds(25)

    /// Runs a report's read on a pooled connection, bounded by ``reportTimeout``.
    private func report<T>(_ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T) throws(StorageError) -> T {
        do throws(PostgresError) {
            return try pool.withConnection(timeout: Self.reportTimeout, body)
        } catch {
            throw StorageError("\(error)")
        }
    }
}
