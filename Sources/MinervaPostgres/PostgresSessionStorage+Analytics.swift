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
            // Every session gets its row first, so that there is always a row to lock (two
            // instances must not both start one), and marks it recent at once, so that a prune
            // running meanwhile waits for this transaction and then keeps it; the rows are locked
            // in id order, and counts added in key order, so that instances wait rather than deadlock.
            let rows = try connection.query(Self.lockTrailsStatement, [.texts(sessions), .double(updated)], until: deadline)
            var trails: [String: AnalyticsTrail] = [:]
            for row in 0..<rows.count { trails[rows.text(row, 0)] = AnalyticsTrail(text: rows.text(row, 1), session: rows.text(row, 0)) }
            var tally = AnalyticsTally(trails: trails)
            tally.apply(entries)
            let changed = sessions.compactMap { session in tally.trails[session].map { (session, $0.text) } }
            let paths = sessions.compactMap { session in tally.paths[session].map { (session, $0) } }
            let counts = tally.counts.sorted { $0.key < $1.key }
            try connection.query(
                Self.writeTallyStatement,
                [
                    .double(updated), .texts(changed.map(\.0)), .texts(changed.map(\.1)), .texts(paths.map(\.0)), .texts(paths.map(\.1)),
                    .ints(counts.map(\.key.bucket)), .texts(counts.map(\.key.screen)), .texts(counts.map(\.key.metric)), .ints(counts.map(\.value)),
                ], until: deadline)
            return tally.samples
        }
    }

    /// Makes the batch's sessions' rows (`$1`, in id order) and marks them updated at `$2`,
    /// locking each, and answers their trails.
    static let lockTrailsStatement = """
        INSERT INTO minerva_analytics_session (session, updated, trail) SELECT session, $2, '' FROM unnest($1::text[]) AS session
            ON CONFLICT (session) DO UPDATE SET updated = EXCLUDED.updated
            RETURNING session, trail
        """

    /// A batch's tally in one statement: the trails (`$2`, `$3`), the lines appended to paths
    /// (`$4`, `$5`) and the counts added (`$6`–`$9`, in key order).
    static let writeTallyStatement = """
        WITH trails AS (
            UPDATE minerva_analytics_session AS session SET updated = GREATEST(session.updated, $1), trail = changed.trail
                FROM unnest($2::text[], $3::text[]) AS changed(session, trail) WHERE session.session = changed.session
        ), paths AS (
            INSERT INTO minerva_analytics_path (session, lines) SELECT session, lines FROM unnest($4::text[], $5::text[]) AS path(session, lines)
        )
        INSERT INTO minerva_analytics_count (bucket, screen, metric, count)
            SELECT bucket, screen, metric, count FROM unnest($6::int8[], $7::text[], $8::text[], $9::int8[]) AS tally(bucket, screen, metric, count)
            ON CONFLICT (bucket, screen, metric) DO UPDATE SET count = minerva_analytics_count.count + EXCLUDED.count
        """

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
    func report<T>(_ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T) throws(StorageError) -> T {
        do throws(PostgresError) {
            return try pool.withConnection(timeout: Self.reportTimeout, body)
        } catch {
            throw StorageError("\(error)")
        }
    }
}
