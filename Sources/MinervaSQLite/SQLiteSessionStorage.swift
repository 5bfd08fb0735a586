import Foundation
import GRDB
public import MinervaSessions

/// Sessions in an SQLite database through GRDB, in WAL mode: a group of writes is committed
/// before any of their answers is sent, so a crash (`kill -9`) loses no acknowledged change.
public final class SQLiteSessionStorage: SessionStorage {
    let pool: DatabasePool

    /// Opens (or creates) the database and brings its schema up to date.
    /// - Parameter path: the database file.
    /// - Throws: GRDB's error when the file cannot be opened or migrated.
    public init(path: String) throws {
        var configuration = Configuration()
        let checkpointPages = Self.checkpointPages(freeBytes: Self.freeBytes(besides: path))
        configuration.prepareDatabase { db in
            // WAL survives a crash of the process with every committed transaction; NORMAL skips
            // only the fsync that protects against power loss.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
        }
        // Another connection to the file (a second server on it, a backup, the sqlite3 shell)
        // may hold the write lock for a moment: wait for it briefly instead of failing the write,
        // yet well inside the 2.5 s in which a stuck store must answer 503.
        configuration.busyMode = .timeout(1)
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    public func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
        try storage {
            try pool.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [id]) else { return nil }
                let record = SessionRecord(
                    id: row["id"], tokenHash: [UInt8](row["tokenHash"] as Data), version: row["version"], lastEvent: row["lastEvent"],
                    firstEvent: row["firstEvent"], appVersion: row["appVersion"], state: [UInt8](row["state"] as Data), lastUsed: row["lastUsed"],
                    createdAt: row["createdAt"])
                // Every event after the head, and at least the newest `eventTail`.
                let events = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT seq, body FROM event WHERE session = ?1
                            AND seq > MIN(?2, COALESCE((SELECT MAX(seq) FROM event WHERE session = ?1), 0) - ?3) ORDER BY seq
                        """,
                    arguments: [id, record.lastEvent, max(0, eventTail)]
                ).map { EventRecord(seq: $0["seq"], body: [UInt8]($0["body"] as Data)) }
                let lists = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT node, version, body FROM list JOIN
                            (SELECT node AS living, version AS current FROM list INDEXED BY listCurrent WHERE session = ?1 AND shownUntil IS NULL) ON node = living
                        WHERE session = ?1 AND (version >= current - 1
                            OR shownUntil > COALESCE((SELECT MAX(seq) FROM event WHERE session = ?1), 0) - ?2) ORDER BY node, version
                        """,
                    arguments: [id, max(0, eventTail)]
                ).map { ListRecord(node: $0["node"], version: $0["version"], body: [UInt8]($0["body"] as Data)) }
                let answers = try Row.fetchAll(
                    db, sql: "SELECT key, storedAt, body FROM answer WHERE session = ? ORDER BY storedAt", arguments: [id]
                ).map { AnswerRecord(key: $0["key"], storedAt: $0["storedAt"], body: [UInt8]($0["body"] as Data)) }
                return StoredSession(record: record, events: events, lists: lists, answers: answers)
            }
        }
    }

    public func tokenHash(of id: String) throws(StorageError) -> [UInt8]? {
        try storage {
            try pool.read { db in
                // An unknown id reads a row too (a hash of zeros, not found), decoded the same way,
                // so that the time does not tell whether an id exists.
                let row = try Row.fetchOne(db.cachedStatement(sql: Self.tokenLookup), arguments: [id])
                let hash = [UInt8](row?["tokenHash"] as Data? ?? Data())
                return row?["found"] == true ? hash : nil
            }
        }
    }

    /// One row whatever the id: a session's token hash and `found` 1, or 32 zero bytes and
    /// `found` 0 for an unknown id.
    private static let tokenLookup =
        "SELECT coalesce(session.tokenHash, zeroblob(32)) AS tokenHash, session.id IS NOT NULL AS found FROM (SELECT ? AS id) AS asked LEFT JOIN session ON session.id = asked.id"

    public func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try storage {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT seq, body FROM event WHERE session = ? AND seq > ? AND seq <= ? ORDER BY seq", arguments: [id, after, last]
                ).map { EventRecord(seq: $0["seq"], body: [UInt8]($0["body"] as Data)) }
            }
        }
    }

    public func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try storage {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT seq, body FROM event WHERE session = ?1 AND seq <= ?3
                            AND seq >= (SELECT MAX(seq) FROM event WHERE session = ?1 AND checkpoint AND version <= MAX(?2, 2)) ORDER BY seq
                        """,
                    arguments: [id, version, last]
                ).map { EventRecord(seq: $0["seq"], body: [UInt8]($0["body"] as Data)) }
            }
        }
    }

    public func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
        try storage {
            try pool.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT body FROM list WHERE session = ? AND node = ? AND version = ?", arguments: [id, node, version]
                ).map { ListRecord(node: node, version: version, body: [UInt8]($0["body"] as Data)) }
            }
        }
    }

    public func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? {
        try storage {
            try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT key, storedAt, body FROM answer WHERE session = ? AND key = ?", arguments: [id, key]).map {
                    AnswerRecord(key: $0["key"], storedAt: $0["storedAt"], body: [UInt8]($0["body"] as Data))
                }
            }
        }
    }

    public func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? {
        try storage {
            try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT key, storedAt, body FROM creation WHERE key = ?", arguments: [key]).map {
                    AnswerRecord(key: $0["key"], storedAt: $0["storedAt"], body: [UInt8]($0["body"] as Data))
                }
            }
        }
    }

    public func sessionCount() throws(StorageError) -> Int {
        try storage { try pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session") ?? 0 } }
    }

    public func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) {
        try storage {
            try pool.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO appDescription (version, document) VALUES (?, ?)", arguments: [version, Data(document)])
            }
        }
    }

    public func appDescription(version: String) throws(StorageError) -> [UInt8]? {
        try storage {
            try pool.read { db in
                try Data.fetchOne(db, sql: "SELECT document FROM appDescription WHERE version = ?", arguments: [version]).map { [UInt8]($0) }
            }
        }
    }

    public func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
        try storage {
            try pool.write { db in
                var outcomes: [WriteOutcome] = []
                outcomes.reserveCapacity(writes.count)
                for write in writes {
                    switch write {
                    case .session(let change):
                        // The check of the newest event comes first: a conflicting write changes
                        // nothing and leaves the others of the group.
                        outcomes.append(try Self.save(change, in: db))
                    case .delete(let id):
                        try Self.delete(id, in: db)
                        outcomes.append(.committed)
                    case .touch(let usage):
                        let statement = try db.cachedStatement(sql: "UPDATE session SET lastUsed = MAX(lastUsed, ?) WHERE id = ?")
                        for (id, lastUsed) in usage { try statement.execute(arguments: [lastUsed, id]) }
                        outcomes.append(.committed)
                    }
                }
                return outcomes
            }
        }
    }

    public func checkWritable() throws(StorageError) {
        try storage {
            try pool.write { db in try db.execute(sql: "INSERT OR REPLACE INTO healthProbe (id, at) VALUES (1, ?)", arguments: [Date().timeIntervalSince1970]) }
        }
    }

    public func grants(of id: String) throws(StorageError) -> [TokenGrant] {
        try storage {
            try pool.read { db in
                try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM tokenGrant WHERE session = ? ORDER BY createdAt, id"), arguments: [id])
                    .compactMap(Self.grant)
            }
        }
    }

    public func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant? {
        try storage {
            try pool.read { db in
                try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM tokenGrant WHERE session = ? AND hash = ?"), arguments: [id, Data(hash)])
                    .flatMap(Self.grant)
            }
        }
    }

    public func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition {
        try storage {
            try pool.write { db in
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM session WHERE id = ?"), arguments: [id]) != nil else { return .noSession }
                let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM tokenGrant WHERE session = ?"), arguments: [id]) ?? 0
                guard count < limit else { return .full }
                try db.cachedStatement(sql: "INSERT INTO tokenGrant (session, id, scope, hash, label, createdAt) VALUES (?, ?, ?, ?, ?, ?)")
                    .execute(arguments: [id, grant.id, grant.scope.rawValue, Data(grant.hash), grant.label, grant.createdAt])
                return .added
            }
        }
    }

    public func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool {
        try storage {
            try pool.write { db in
                try db.cachedStatement(sql: "DELETE FROM tokenGrant WHERE session = ? AND id = ?").execute(arguments: [id, grantID])
                return db.changesCount == 1
            }
        }
    }

    /// A grant from its row (`nil` for a scope this build does not know).
    private static func grant(_ row: Row) -> TokenGrant? {
        guard let scope = TokenScope(rawValue: row["scope"]) else { return nil }
        return TokenGrant(id: row["id"], scope: scope, hash: [UInt8](row["hash"] as Data), label: row["label"], createdAt: row["createdAt"])
    }

    public func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
        try storage {
            try pool.write { db in
                let ids = try String.fetchAll(db, sql: "SELECT id FROM session WHERE lastUsed < ?", arguments: [cutoff])
                for id in ids { try Self.delete(id, in: db) }
                try db.execute(sql: "DELETE FROM creation WHERE storedAt < ?", arguments: [answersBefore])
                try db.execute(sql: "DELETE FROM answer WHERE storedAt < ?", arguments: [answersBefore])
                return ids
            }
        }
    }

    /// Writes one session's change; `conflict` (and nothing written) when the stored session's
    /// newest event is not the expected one, or a session to create exists already.
    private static func save(_ change: SessionWrite, in db: Database) throws -> WriteOutcome {
        let record = change.record
        let id = record.id
        if let expected = change.expectedLastEvent {
            let newest = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(lastEvent, COALESCE((SELECT MAX(seq) FROM event WHERE session = ?1), 0)) FROM session WHERE id = ?1"),
                arguments: [id])
            guard newest == expected else { return .conflict }
            if change.writesHead {
                try db.cachedStatement(sql: "UPDATE session SET version = ?, lastEvent = ?, appVersion = ?, state = ?, lastUsed = ? WHERE id = ?")
                    .execute(arguments: [record.version, record.lastEvent, record.appVersion, Data(record.state), record.lastUsed, id])
            }
        } else {
            // A creation's Idempotency-Key is claimed first: a key stored already (and not expired)
            // refuses the creation.
            if let creation = change.creation {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO creation (key, storedAt, body) VALUES (?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET storedAt = excluded.storedAt, body = excluded.body WHERE creation.storedAt < ?
                        """
                ).execute(arguments: [creation.key, creation.storedAt, Data(creation.body), change.creationKeysExpireBefore])
                guard db.changesCount == 1 else { return .conflict }
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO session (id, tokenHash, version, lastEvent, firstEvent, appVersion, state, lastUsed, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """
            ).execute(arguments: [
                id, Data(record.tokenHash), record.version, record.lastEvent, record.firstEvent, record.appVersion, Data(record.state),
                record.lastUsed, record.createdAt,
            ])
            // A session id collision is all but impossible (128 random bits): the key is released.
            guard db.changesCount == 1 else {
                if let creation = change.creation {
                    try db.cachedStatement(sql: "DELETE FROM creation WHERE key = ?").execute(arguments: [creation.key])
                }
                return .conflict
            }
        }
        let insertEvent = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO event (session, seq, body, checkpoint, version) VALUES (?, ?, ?, ?, ?)")
        for event in change.newEvents {
            try insertEvent.execute(arguments: [id, event.seq, Data(event.body), event.carriesCheckpoint, event.version])
        }
        if let oldest = change.oldestKeptEvent {
            try db.cachedStatement(
                sql: """
                    DELETE FROM event WHERE session = ?1
                        AND seq < COALESCE((SELECT MAX(seq) FROM event WHERE session = ?1 AND checkpoint AND seq < ?2), ?2)
                    """
            ).execute(arguments: [id, oldest])
        }
        for (node, at) in change.supersededLists {
            try db.cachedStatement(sql: "UPDATE list INDEXED BY listCurrent SET shownUntil = ? WHERE session = ? AND node = ? AND shownUntil IS NULL")
                .execute(arguments: [at, id, node])
        }
        for node in change.restartedLists {
            try db.cachedStatement(sql: "DELETE FROM list WHERE session = ? AND node = ?").execute(arguments: [id, node])
        }
        let insertList = try db.cachedStatement(sql: "INSERT OR REPLACE INTO list (session, node, version, body, shownUntil) VALUES (?, ?, ?, ?, NULL)")
        for list in change.newListVersions { try insertList.execute(arguments: [id, list.node, list.version, Data(list.body)]) }
        if change.oldestKeptEvent != nil {
            // The versions no kept event shows go, except a living node's newest retained ones.
            try db.cachedStatement(
                sql: """
                    DELETE FROM list WHERE session = ?1 AND shownUntil < COALESCE((SELECT MIN(seq) FROM event WHERE session = ?1), ?2)
                        AND version < COALESCE((SELECT current.version FROM list AS current INDEXED BY listCurrent
                            WHERE current.session = ?1 AND current.node = list.node AND current.shownUntil IS NULL) - ?3, ?2)
                    """
            ).execute(arguments: [id, Int64.max, Int64(clamping: change.retainedListVersions)])
        }
        let insertAnswer = try db.cachedStatement(sql: "INSERT OR REPLACE INTO answer (session, key, storedAt, body) VALUES (?, ?, ?, ?)")
        for answer in change.newAnswers { try insertAnswer.execute(arguments: [id, answer.key, answer.storedAt, Data(answer.body)]) }
        if change.keptAnswers < Int.max, !change.newAnswers.isEmpty {
            try db.cachedStatement(
                sql: "DELETE FROM answer WHERE session = ? AND key NOT IN (SELECT key FROM answer WHERE session = ? ORDER BY storedAt DESC LIMIT ?)"
            ).execute(arguments: [id, id, change.keptAnswers])
        }
        if !change.experimentUnits.isEmpty || !change.experimentFacts.isEmpty { try keepExperiments(of: change, in: db) }
        return .committed
    }

    /// Removes a session and everything it holds.
    private static func delete(_ id: String, in db: Database) throws {
        for table in ["event", "list", "answer", "tokenGrant"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE session = ?").execute(arguments: [id])
        }
        try db.cachedStatement(sql: "DELETE FROM session WHERE id = ?").execute(arguments: [id])
    }

    /// Runs a database call, its errors as ``StorageError``.
    func storage<T>(_ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch {
            throw StorageError("\(error)")
        }
    }
}
