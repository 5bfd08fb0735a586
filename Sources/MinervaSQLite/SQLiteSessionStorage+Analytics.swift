import Foundation
import GRDB
public import MinervaSessions

extension SQLiteSessionStorage: AnalyticsStorage {
    /// The analytics tables: rollups keyed by hour, screen and figure; one row per session with
    /// its trail, found by when it last changed (for pruning and funnels); and its path as the
    /// lines of each batch, appended as rows of their own (a long path is never rewritten).
    static func createAnalyticsTables(_ db: Database) throws {
        try db.create(table: "analyticsCount", options: [.withoutRowID]) { table in
            table.column("bucket", .integer).notNull()
            table.column("screen", .text).notNull()
            table.column("metric", .text).notNull()
            table.column("count", .integer).notNull()
            table.primaryKey(["bucket", "screen", "metric"])
        }
        try db.create(table: "analyticsSession") { table in
            table.primaryKey("session", .text)
            table.column("updated", .double).notNull().indexed()
            table.column("trail", .text).notNull()
        }
        try db.create(table: "analyticsPath") { table in
            table.column("session", .text).notNull().indexed()
            table.column("lines", .text).notNull()
        }
    }

    public func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
        try analytics {
            try pool.write { db in
                var trails: [String: AnalyticsTrail] = [:]
                let read = try db.cachedStatement(sql: "SELECT trail FROM analyticsSession WHERE session = ?")
                for session in Set(entries.map(\.session)) {
                    if let text = try String.fetchOne(read, arguments: [session]) {
                        trails[session] = AnalyticsTrail(text: text, session: session)
                    }
                }
                var tally = AnalyticsTally(trails: trails)
                tally.apply(entries)
                let upsertTrail = try db.cachedStatement(
                    sql: """
                        INSERT INTO analyticsSession (session, updated, trail) VALUES (?, ?, ?)
                        ON CONFLICT (session) DO UPDATE SET updated = max(updated, excluded.updated), trail = excluded.trail
                        """)
                for (session, trail) in tally.trails {
                    try upsertTrail.execute(arguments: [session, updated, trail.text])
                }
                let appendPath = try db.cachedStatement(sql: "INSERT INTO analyticsPath (session, lines) VALUES (?, ?)")
                for (session, lines) in tally.paths {
                    try appendPath.execute(arguments: [session, lines])
                }
                let addCount = try db.cachedStatement(
                    sql: """
                        INSERT INTO analyticsCount (bucket, screen, metric, count) VALUES (?, ?, ?, ?)
                        ON CONFLICT (bucket, screen, metric) DO UPDATE SET count = count + excluded.count
                        """)
                for (key, count) in tally.counts {
                    try addCount.execute(arguments: [key.bucket, key.screen, key.metric, count])
                }
                return tally.samples
            }
        }
    }

    public func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] {
        try analytics {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT bucket, screen, metric, count FROM analyticsCount WHERE bucket >= ? AND bucket < ?",
                    arguments: [from ?? Int.min, until ?? Int.max]
                ).map { AnalyticsCount(key: AnalyticsCount.Key(bucket: $0["bucket"], screen: $0["screen"], metric: $0["metric"]), count: $0["count"]) }
            }
        }
    }

    public func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] {
        try analytics {
            try pool.read { db in
                var texts: [String: String] = [:]
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT path.session, path.lines FROM analyticsPath AS path JOIN analyticsSession AS session USING (session)
                        WHERE session.updated >= ? ORDER BY path.rowid
                        """, arguments: [updatedSince ?? -Double.infinity])
                while let row = try rows.next() {
                    texts[row[0], default: ""] += row[1] as String
                }
                return texts.map { AnalyticsPath(session: $0.key, text: $0.value) }
            }
        }
    }

    @discardableResult
    public func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int {
        try analytics {
            try pool.write { db in
                try db.execute(
                    sql: "DELETE FROM analyticsPath WHERE session IN (SELECT session FROM analyticsSession WHERE updated < ?)", arguments: [before])
                try db.execute(sql: "DELETE FROM analyticsSession WHERE updated < ?", arguments: [before])
                return db.changesCount
            }
        }
    }

    /// Runs a database call, its errors as ``StorageError``.
    private func analytics<T>(_ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch {
            throw StorageError("\(error)")
        }
    }
}
