import Foundation
import GRDB
@testable import MinervaCoordinator
import MinervaJSON
@testable import MinervaSessions
@testable import MinervaSQLite
import TestSupport
import Testing

/// A database written by the previous schema (events, lists and answers as records, a tree
/// snapshot with its event counter) is migrated when the store opens, and its sessions are
/// served on.
@Suite struct StorageMigrationTests {
    @Test func aSecondVersionDatabaseIsMigratedAndServed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-v2-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var tree = CoordinatorTree(app: .tabs)
        try tree.navigate(screen: "profile", params: ["userId": "42"])
        let token = "token-of-the-old-session"
        try SQLiteSessionStorage.migrator.migrate(try DatabaseQueue(path: path), upTo: "v2: events, lists and answers as records of their own")
        try DatabaseQueue(path: path).write { db in
            guard case .object(var treeMembers) = try JSONParser.parse(tree.snapshotBytes) else { return }
            treeMembers["lastSeq"] = 5
            var snapshot = JSONWriter()
            snapshot.value(["tree": .object(treeMembers), "version": 6])
            try db.execute(
                sql: "INSERT INTO session (id, tokenHash, version, snapshot, lastUsed) VALUES (?, ?, 6, ?, ?)",
                arguments: ["s_old", Data(Token.hash(token)), Data(snapshot.bytes), Date().timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO event (session, seq, body) VALUES ('s_old', 5, ?)",
                arguments: [Data(#"{"seq":5,"node":"n9","screen":"photo","reason":"pop"}"#.utf8)])
            try db.execute(
                sql: "INSERT INTO list (session, node, version, body) VALUES ('s_old', 'n3', 1, ?)",
                arguments: [Data(#"[{"id":"s","items":[{"id":"a","kind":"row","content":{"t":1}}]}]"#.utf8)])
            try db.execute(
                sql: "INSERT INTO answer (session, key, storedAt, body) VALUES ('s_old', 'k1', ?, ?)",
                arguments: [
                    Date().timeIntervalSince1970,
                    Data(#"{"key":"k1","fingerprint":7,"status":200,"headers":[["ETag","\"6\""]],"body":"{}","storedAt":1}"#.utf8),
                ])
            try db.execute(
                sql: "INSERT INTO creation (key, fingerprint, status, headers, body, storedAt) VALUES ('c1', 9, 201, ?, ?, ?)",
                arguments: ["ETag:\"1\"\nLocation:/v1/sessions/s_x", Data(#"{"id":"s_x"}"#.utf8), Date().timeIntervalSince1970])
        }

        let harness = try CoreHarness(storage: try SQLiteSessionStorage(path: path))
        // The old schema recorded no app version: run the app under that (empty) one, so that the
        // session is read as it was (a session moves to another version as a change of its own).
        try harness.core.replaceApp(.tabs, version: "")
        #expect(harness.core.sessionCount == 1)
        let session = try harness.core.session("s_old", token: token)
        let state = try harness.state(of: session)
        #expect(state.tree == tree && state.version == 6 && state.lastEvent == 5)
        #expect(state.lists[NodeID(3)]?.current.itemCount == 1)
        // The old log is not kept, its numbers are: a client asking for it is told to reload.
        let page = try harness.core.eventPage(of: session, after: 0)
        #expect(page.events.isEmpty && page.truncated && page.last == 5)
        let replay = harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session, key: IdempotencyKey(key: "k1", fingerprint: 7))
        #expect(try replay.get().replayed)
        let popped = try harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        #expect(popped.events.map(\.seq) == [6] && popped.events.map(\.version) == [7])
        let created = harness.wait { completion in
            harness.core.create(
                layout: .stack, deepLink: nil, key: IdempotencyKey(key: "c1", fingerprint: 9),
                answer: { _ in StoredAnswer(status: 500, headers: [], body: []) }, completion: completion)
        }
        #expect(try created.get().body == Array(#"{"id":"s_x"}"#.utf8))
    }
}
