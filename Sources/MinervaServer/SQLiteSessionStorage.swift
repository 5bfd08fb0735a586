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
        migrator.registerMigration("v2: events, lists and answers as records of their own") { db in
            try db.create(table: "event", options: [.withoutRowID]) { table in
                table.column("session", .text).notNull()
                table.column("seq", .integer).notNull()
                table.column("body", .blob).notNull()
                table.primaryKey(["session", "seq"])
            }
            try db.create(table: "list", options: [.withoutRowID]) { table in
                table.column("session", .text).notNull()
                table.column("node", .text).notNull()
                table.column("version", .integer).notNull()
                table.column("body", .blob).notNull()
                table.primaryKey(["session", "node", "version"])
            }
            try db.create(table: "answer", options: [.withoutRowID]) { table in
                table.column("session", .text).notNull()
                table.column("key", .text).notNull()
                table.column("storedAt", .double).notNull()
                table.column("body", .blob).notNull()
                table.primaryKey(["session", "key"])
            }
        }
        try migrator.migrate(pool)
    }

    public func loadSessions() throws -> [StoredSession] {
        try pool.read { db in
            var sessions = try Row.fetchAll(db, sql: "SELECT id, tokenHash, version, snapshot, lastUsed FROM session").map { row in
                StoredSession(
                    id: row["id"], tokenHash: [UInt8](row["tokenHash"] as Data), version: row["version"],
                    snapshot: [UInt8](row["snapshot"] as Data), lastUsed: row["lastUsed"])
            }
            let index = Dictionary(uniqueKeysWithValues: sessions.enumerated().map { ($0.element.id, $0.offset) })
            let events = try Row.fetchCursor(db, sql: "SELECT session, body FROM event ORDER BY session, seq")
            while let row = try events.next() {
                guard let position = index[row["session"]] else { continue }
                sessions[position].events.append([UInt8](row["body"] as Data))
            }
            let lists = try Row.fetchCursor(db, sql: "SELECT session, node, version, body FROM list ORDER BY session, node, version")
            while let row = try lists.next() {
                guard let position = index[row["session"]] else { continue }
                sessions[position].listVersions.append((row["node"], row["version"], [UInt8](row["body"] as Data)))
            }
            let answers = try Row.fetchCursor(db, sql: "SELECT session, body FROM answer ORDER BY session, storedAt")
            while let row = try answers.next() {
                guard let position = index[row["session"]] else { continue }
                sessions[position].answers.append([UInt8](row["body"] as Data))
            }
            return sessions
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

    public func save(_ change: SessionChange) throws {
        try pool.write { db in
            if change.replacesAll {
                for table in ["event", "list", "answer"] {
                    try db.cachedStatement(sql: "DELETE FROM \(table) WHERE session = ?").execute(arguments: [change.id])
                }
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO session (id, tokenHash, version, snapshot, lastUsed) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET version = excluded.version, snapshot = excluded.snapshot, lastUsed = excluded.lastUsed
                    """
            ).execute(arguments: [change.id, Data(change.tokenHash), change.version, Data(change.snapshot), change.lastUsed])
            let insertEvent = try db.cachedStatement(sql: "INSERT OR REPLACE INTO event (session, seq, body) VALUES (?, ?, ?)")
            for (seq, event) in change.newEvents {
                try insertEvent.execute(arguments: [change.id, seq, Data(event)])
            }
            if let oldest = change.oldestEvent {
                try db.cachedStatement(sql: "DELETE FROM event WHERE session = ? AND seq < ?").execute(arguments: [change.id, oldest])
            }
            for (node, version, content) in change.newListVersions {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO list (session, node, version, body) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [change.id, node, version, Data(content)])
            }
            for (node, oldest) in change.keptListVersions {
                if let oldest {
                    try db.cachedStatement(sql: "DELETE FROM list WHERE session = ? AND node = ? AND version < ?")
                        .execute(arguments: [change.id, node, oldest])
                } else {
                    try db.cachedStatement(sql: "DELETE FROM list WHERE session = ? AND node = ?").execute(arguments: [change.id, node])
                }
            }
            for (key, storedAt, answer) in change.newAnswers {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO answer (session, key, storedAt, body) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [change.id, key, storedAt, Data(answer)])
            }
            for key in change.forgottenAnswers {
                try db.cachedStatement(sql: "DELETE FROM answer WHERE session = ? AND key = ?").execute(arguments: [change.id, key])
            }
        }
    }

    public func delete(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try pool.write { db in
            for id in ids {
                for table in ["event", "list", "answer"] {
                    try db.cachedStatement(sql: "DELETE FROM \(table) WHERE session = ?").execute(arguments: [id])
                }
                try db.cachedStatement(sql: "DELETE FROM session WHERE id = ?").execute(arguments: [id])
            }
        }
    }

    public func touch(_ usage: [(id: String, lastUsed: Double)]) throws {
        guard !usage.isEmpty else { return }
        try pool.write { db in
            for (id, lastUsed) in usage {
                try db.cachedStatement(sql: "UPDATE session SET lastUsed = ? WHERE id = ?").execute(arguments: [lastUsed, id])
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
