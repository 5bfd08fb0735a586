import Foundation
import GRDB
import MinervaJSON
@testable import MinervaServer
import MinervaSessions
@testable import MinervaSQLite
import Testing

/// The SQLite store read back by a second API over the same file, as after a restart.
@Suite struct SQLiteStorageTests {
    /// A database file of its own, removed with its WAL files when the test ends.
    final class DatabaseFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-\(UUID().uuidString).sqlite").path

        deinit {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }

        /// Rows of a table, read directly.
        func count(_ table: String) throws -> Int {
            try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        }

        /// The lowest `seq` of the kept events, and whether that event carries a checkpoint.
        func oldestEvent() throws -> (seq: Int, checkpoint: Bool)? {
            try DatabaseQueue(path: path).read { db in
                try Row.fetchOne(db, sql: "SELECT seq, checkpoint FROM event ORDER BY seq LIMIT 1").map { ($0["seq"], $0["checkpoint"]) }
            }
        }
    }

    private func server(_ file: DatabaseFile, eventHistory: Int = 1000, listHistory: Int = 32) throws -> InProcessClient {
        let client = InProcessClient(
            configuration: ServerConfiguration(
                sessions: SessionConfiguration(maxSessions: 10, eventHistory: eventHistory, listHistory: listHistory, rateLimit: 0)),
            storage: try SQLiteSessionStorage(path: file.path))
        return client
    }

    /// A session with events, a list and a remembered answer; returns what a client would see.
    private func buildSession(on client: InProcessClient) -> (id: String, auth: (name: String, value: String), answer: JSONValue?) {
        let (id, auth) = client.createSession()
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth]).status == 200)
        let list = #"{"sections": [{"id": "s", "items": [{"id": "a", "kind": "row", "content": {"t": 1}}]}]}"#
        #expect(client.send("PUT", "/v1/sessions/\(id)/nodes/n1/list", list, headers: [auth]).status == 200)
        let answer = client.send("POST", "/v1/sessions/\(id)/pop", "{}", headers: [auth, ("Idempotency-Key", "pop-1")])
        #expect(answer.status == 200)
        return (id, auth, answer.json)
    }

    @Test func aTokenHashIsReadForAStoredIdAndNoneForAnUnknownOne() throws {
        let file = DatabaseFile()
        let (id, _) = try server(file).createSession()
        let storage = try SQLiteSessionStorage(path: file.path)
        // An unknown id reads a row of zeros the same way (the time must not tell): still none.
        #expect(try storage.tokenHash(of: id)?.count == 32 && storage.tokenHash(of: id) != [UInt8](repeating: 0, count: 32))
        #expect(try storage.tokenHash(of: "s_unknown") == nil)
        #expect(try storage.tokenHash(of: "") == nil)
    }

    @Test func aRestartServesTheSameStateEventsListsAndAnswers() throws {
        let file = DatabaseFile()
        let first = try server(file)
        let (id, auth, answer) = buildSession(on: first)
        let state = first.send("GET", "/v1/sessions/\(id)", headers: [auth]).json
        let events = first.send("GET", "/v1/sessions/\(id)/events", headers: [auth]).json

        let second = try server(file)
        #expect(second.send("GET", "/v1/sessions/\(id)", headers: [auth]).json == state)
        #expect(second.send("GET", "/v1/sessions/\(id)/events", headers: [auth]).json == events)
        #expect(second.send("POST", "/v1/sessions/\(id)/pop", "{}", headers: [auth, ("Idempotency-Key", "pop-1")]).json == answer)
    }

    @Test func eachMutationWritesOnlyItsOwnRecordsAndDropsWhatTheHistoryForgets() throws {
        let file = DatabaseFile()
        let client = try server(file, eventHistory: 3)
        let (id, auth) = client.createSession()
        for _ in 0..<50 {
            #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth]).status == 200)
            #expect(client.send("POST", "/v1/sessions/\(id)/pop", "{}", headers: [auth]).status == 200)
        }
        // 100 events, 3 kept; the older ones go 64 at a time, but for the newest checkpoint before
        // the kept ones (earlier versions are rebuilt from it): the last delete (when the oldest
        // kept one reached 64) left the checkpoint before seq 64 and everything after it.
        let oldest = try #require(try file.oldestEvent())
        #expect(oldest.checkpoint && oldest.seq < 64 && oldest.seq > 40)
        #expect(try file.count("event") == 101 - oldest.seq)
        #expect(client.send("GET", "/v1/sessions/\(id)/events", headers: [auth]).json?.objectValue?["events"]?.arrayValue?.count == 3)
        let list = #"{"sections": [{"id": "s", "items": []}]}"#
        #expect(client.send("PUT", "/v1/sessions/\(id)/nodes/n1/list", list, headers: [auth]).status == 200)
        #expect(try file.count("list") == 1)
        #expect(client.send("DELETE", "/v1/sessions/\(id)", headers: [auth]).status == 204)
        for table in ["session", "event", "list", "answer"] { #expect(try file.count(table) == 0, "\(table) rows left") }
    }

    @Test func listVersionsAreStoredOneByOneAndDiffsStartFromTheRetainedOnes() throws {
        let file = DatabaseFile()
        let first = try server(file, listHistory: 2)
        let (id, auth) = first.createSession()
        for version in 1...5 {
            let list = #"{"sections": [{"id": "s", "items": [{"id": "v\#(version)", "kind": "row"}, {"id": "a", "kind": "row"}]}]}"#
            #expect(first.send("PUT", "/v1/sessions/\(id)/nodes/n1/list", list, headers: [auth]).status == 200)
        }
        #expect(try file.count("list") == 5)  // every version, while the log keeps the events that show them
        let path = "/v1/sessions/\(id)/nodes/n1/list"
        let kept = first.body("GET", path, query: [("since", "3")], headers: [auth])
        let forgotten = first.body("GET", path, query: [("since", "2")], headers: [auth])
        #expect(forgotten.contains(#""reload":true"#))

        let second = try server(file, listHistory: 2)
        #expect(second.body("GET", path, query: [("since", "3")], headers: [auth]) == kept)
        #expect(second.body("GET", path, query: [("since", "2")], headers: [auth]) == forgotten)
    }

    /// The write-ahead log is copied into the database every 10,000 pages, but within a quarter
    /// of the space free when the store opens: the log alone never fills a small disk.
    @Test func theLogIsCheckpointedWithinAQuarterOfTheFreeSpace() throws {
        #expect(SQLiteSessionStorage.checkpointPages(freeBytes: nil) == 10_000)
        #expect(SQLiteSessionStorage.checkpointPages(freeBytes: 100 << 30) == 10_000)
        #expect(SQLiteSessionStorage.checkpointPages(freeBytes: 8 << 20) == 512)
        #expect(SQLiteSessionStorage.checkpointPages(freeBytes: 0) == 100)
        let file = DatabaseFile()
        let store = try SQLiteSessionStorage(path: file.path)
        let expected = SQLiteSessionStorage.checkpointPages(freeBytes: SQLiteSessionStorage.freeBytes(besides: file.path))
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == expected)
    }
}
