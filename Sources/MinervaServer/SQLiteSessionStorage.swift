import Foundation
import GRDB

/// Sessions in an SQLite database through GRDB, in WAL mode: a mutation's snapshot is
/// committed before its answer is sent, so a crash (`kill -9`) loses no acknowledged change.
public final class SQLiteSessionStorage: SessionStorage {
    private let pool: DatabasePool

    /// Opens (or creates) the database and brings its schema up to date.
    /// - Parameter path: the database file.
    /// - Throws: GRDB's error when the file cannot be opened or migrated.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // WAL survives a crash of the process with every committed transaction; NORMAL skips
            // only the fsync that protects against power loss.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "session") { table in
                table.primaryKey("id", .text)
                table.column("tokenHash", .blob).notNull()
                table.column("version", .integer).notNull()
                table.column("snapshot", .blob).notNull()
                table.column("lastUsed", .double).notNull()
            }
            try db.create(table: "creation") { table in
                table.primaryKey("key", .text)
                table.column("fingerprint", .integer).notNull()
                table.column("status", .integer).notNull()
                table.column("headers", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("storedAt", .double).notNull()
            }
        }
        try migrator.migrate(pool)
    }

    public func loadSessions() throws -> [StoredSession] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, tokenHash, version, snapshot, lastUsed FROM session").map { row in
                StoredSession(
                    id: row["id"], tokenHash: [UInt8](row["tokenHash"] as Data), version: row["version"],
                    snapshot: [UInt8](row["snapshot"] as Data), lastUsed: row["lastUsed"])
            }
        }
    }

    public func loadCreations() throws -> [StoredCreation] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT key, fingerprint, status, headers, body, storedAt FROM creation ORDER BY storedAt").map { row in
                let headerText: String = row["headers"]
                let headers = headerText.split(separator: "\n").compactMap { line -> (name: String, value: String)? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
                }
                return StoredCreation(
                    key: row["key"], fingerprint: UInt64(bitPattern: row["fingerprint"]), status: row["status"], headers: headers,
                    body: [UInt8](row["body"] as Data), storedAt: row["storedAt"])
            }
        }
    }

    public func save(_ session: StoredSession) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO session (id, tokenHash, version, snapshot, lastUsed) VALUES (?, ?, ?, ?, ?)",
                arguments: [session.id, Data(session.tokenHash), session.version, Data(session.snapshot), session.lastUsed])
        }
    }

    public func delete(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try pool.write { db in
            for id in ids {
                try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
            }
        }
    }

    public func touch(_ usage: [(id: String, lastUsed: Double)]) throws {
        guard !usage.isEmpty else { return }
        try pool.write { db in
            for (id, lastUsed) in usage {
                try db.execute(sql: "UPDATE session SET lastUsed = ? WHERE id = ?", arguments: [lastUsed, id])
            }
        }
    }

    public func save(_ creation: StoredCreation, expiredBefore: Double) throws {
        let headers = creation.headers.map { "\($0.name):\($0.value)" }.joined(separator: "\n")
        try pool.write { db in
            try db.execute(sql: "DELETE FROM creation WHERE storedAt < ?", arguments: [expiredBefore])
            try db.execute(
                sql: "INSERT OR REPLACE INTO creation (key, fingerprint, status, headers, body, storedAt) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    creation.key, Int64(bitPattern: creation.fingerprint), creation.status, headers, Data(creation.body), creation.storedAt,
                ])
        }
    }
}
