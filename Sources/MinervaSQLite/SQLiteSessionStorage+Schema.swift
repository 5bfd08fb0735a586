import Foundation
import GRDB
import MinervaJSON
import MinervaList
import MinervaSessions

extension SQLiteSessionStorage {
    /// The schema's history: each migration runs once per database, in order.
    static var migrator: DatabaseMigrator {
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
        migrator.registerMigration("v3: the session core's records (change log, app version, creations with their answers)") { db in
            try migrateSessionsToV3(db)
            try migrateCreationsToV3(db)
        }
        migrator.registerMigration("v4: events that carry a checkpoint of the state") { db in
            try db.alter(table: "event") { table in table.add(column: "checkpoint", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v5: flow analytics (hourly rollups, per-session trails and paths)", migrate: createAnalyticsTables)
        migrator.registerMigration("v6: app descriptions by version") { db in
            try db.create(table: "appDescription") { table in
                table.primaryKey("version", .text)
                table.column("document", .blob).notNull()
            }
        }
        migrator.registerMigration("v7: a row the health check rewrites to find out whether writes are taken") { db in
            try db.create(table: "healthProbe") { table in
                table.primaryKey("id", .integer)
                table.column("at", .double).notNull()
            }
        }
        migrator.registerMigration("v8: list versions kept while an event shows them; the version of each event") { db in
            // A version no longer current was shown until the event that replaced it; those kept
            // before are taken as shown by no kept event, as the store then kept them only for diffs.
            try db.alter(table: "list") { table in table.add(column: "shownUntil", .integer) }
            try db.execute(
                sql: "UPDATE list SET shownUntil = 0 WHERE version < (SELECT MAX(version) FROM list newest WHERE newest.session = list.session AND newest.node = list.node)")
            // A node's current version is found without reading its older ones (the rows hold the lists).
            try db.execute(sql: "CREATE INDEX listCurrent ON list (session, node, version) WHERE shownUntil IS NULL")
            try db.execute(sql: "CREATE INDEX listShownUntil ON list (session, shownUntil) WHERE shownUntil IS NOT NULL")
            // Events stored before have none: reading an earlier version then reads the whole log.
            try db.alter(table: "event") { table in table.add(column: "version", .integer) }
            try db.execute(sql: "CREATE INDEX eventCheckpoint ON event (session, version) WHERE checkpoint")
        }
        migrator.registerMigration("v9: when each session was made (what bounds a device's time of a change)") { db in
            // Sessions made before have none: a device's time of their changes is bounded by the server's clock alone.
            try db.alter(table: "session") { table in table.add(column: "createdAt", .double) }
        }
        migrator.registerMigration("v10: extra tokens a session's owner issued") { db in
            try db.create(table: "tokenGrant", options: [.withoutRowID]) { table in
                table.column("session", .text).notNull()
                table.column("id", .text).notNull()
                table.column("scope", .text).notNull()
                table.column("hash", .blob).notNull()
                table.column("label", .text)
                table.column("createdAt", .integer).notNull()
                table.primaryKey(["session", "id"])
            }
        }
        migrator.registerMigration("v11: experiment units and the facts they are counted by", migrate: createExperimentTables)
        return migrator
    }

    /// Sessions get their last event number and app version beside their tree. The events of
    /// older versions had no session version or time and are not kept: their numbers are, so
    /// the log goes on without reusing one, and a client asking for them is told to reload.
    /// Lists and answers that the oldest format kept inside the snapshot get rows of their own.
    private static func migrateSessionsToV3(_ db: Database) throws {
        try db.create(table: "sessionV3") { table in
            table.primaryKey("id", .text)
            table.column("tokenHash", .blob).notNull()
            table.column("version", .integer).notNull()
            table.column("lastEvent", .integer).notNull()
            table.column("firstEvent", .integer).notNull()
            table.column("appVersion", .text).notNull()
            table.column("state", .blob).notNull()
            table.column("lastUsed", .double).notNull()
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, tokenHash, version, snapshot, lastUsed FROM session") {
            let id: String = row["id"]
            guard let snapshot = try? JSONParser.parse([UInt8](row["snapshot"] as Data), maximumDepth: JSONParser.maximumDepth + 32),
                let members = snapshot.objectValue, let tree = members["tree"]
            else {
                // Not a session any build wrote: it could never be served, so nothing of it stays.
                for table in ["list", "answer"] { try db.execute(sql: "DELETE FROM \(table) WHERE session = ?", arguments: [id]) }
                continue
            }
            var writer = JSONWriter()
            writer.value(tree)
            let lastEvent = tree.objectValue?["lastSeq"]?.intValue ?? 0
            try db.execute(
                sql: "INSERT INTO sessionV3 (id, tokenHash, version, lastEvent, firstEvent, appVersion, state, lastUsed) VALUES (?, ?, ?, ?, ?, '', ?, ?)",
                arguments: [id, row["tokenHash"] as Data, row["version"] as Int, lastEvent, lastEvent + 1, Data(writer.bytes), row["lastUsed"] as Double])
            for (node, history) in members["lists"]?.objectValue ?? [:] {
                guard let history = try? ListHistory(snapshot: history) else { continue }
                for (version, content) in history.keptVersions {
                    var list = JSONWriter()
                    content.write(into: &list)
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO list (session, node, version, body) VALUES (?, ?, ?, ?)",
                        arguments: [id, node, version, Data(list.bytes)])
                }
            }
            for entry in members["idempotency"]?.arrayValue ?? [] {
                guard let key = entry.objectValue?["key"]?.stringValue, let storedAt = entry.objectValue?["storedAt"]?.intValue else { continue }
                var answer = JSONWriter()
                answer.value(entry)
                try db.execute(
                    sql: "INSERT OR IGNORE INTO answer (session, key, storedAt, body) VALUES (?, ?, ?, ?)",
                    arguments: [id, key, Double(storedAt) / 1000, Data(answer.bytes)])
            }
        }
        try db.execute(sql: "DELETE FROM event")
        try db.drop(table: "session")
        try db.rename(table: "sessionV3", to: "session")
    }

    /// Creation answers are kept as one record, as sessions keep theirs, sealed (they carry tokens).
    private static func migrateCreationsToV3(_ db: Database) throws {
        try db.create(table: "creationV3") { table in
            table.primaryKey("key", .text)
            table.column("storedAt", .double).notNull()
            table.column("body", .blob).notNull()
        }
        for row in try Row.fetchAll(db, sql: "SELECT key, fingerprint, status, headers, body, storedAt FROM creation") {
            let headerText: String = row["headers"]
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("fingerprint", row["fingerprint"] as Int)
            writer.field("status", row["status"] as Int)
            writer.key("headers")
            writer.beginArray()
            for line in headerText.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                writer.beginArray()
                writer.string(String(parts[0]))
                writer.string(String(parts[1]))
                writer.endArray()
            }
            writer.endArray()
            writer.field("body", String(decoding: row["body"] as Data, as: UTF8.self))
            writer.endObject()
            let sealed = try CreationSealing.seal(AnswerRecord(key: row["key"], storedAt: row["storedAt"], body: writer.bytes))
            try db.execute(
                sql: "INSERT INTO creationV3 (key, storedAt, body) VALUES (?, ?, ?)", arguments: [sealed.key, sealed.storedAt, Data(sealed.body)])
        }
        try db.drop(table: "creation")
        try db.rename(table: "creationV3", to: "creation")
    }
}
