import Logging
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import Testing
import TestSupport

/// The memory store keeps the values a core writes and encodes records only when they are read:
/// every read answers what the same store answers when the same changes are written to it as
/// records (the events' and lists' bytes alike, the state read back alike).
@Suite struct MemoryStoreValuesTests {
    /// The memory store behind a local store's door: a core writes it records, as it writes SQLite.
    final class RecordsInMemory: SessionStorage, AnalyticsStorage {
        let store = MemorySessionStorage()
        let analytics = AnalyticsMemoryStore()

        func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? { try store.loadSession(id, eventTail: eventTail) }
        func tokenHash(of id: String) throws(StorageError) -> [UInt8]? { try store.tokenHash(of: id) }
        func grants(of id: String) throws(StorageError) -> [TokenGrant] { try store.grants(of: id) }
        func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant? { try store.grant(of: id, hash: hash) }
        func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition {
            try store.addGrant(grant, to: id, limit: limit)
        }
        func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool { try store.revokeGrant(grantID, of: id) }
        func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord] {
            try store.events(of: id, after: after, through: last)
        }
        func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord] {
            try store.events(of: id, rebuilding: version, through: last)
        }
        func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
            try store.listVersion(of: id, node: node, version: version)
        }
        func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? { try store.loadAnswer(of: id, key: key) }
        func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? { try store.loadCreation(key) }
        func sessionCount() throws(StorageError) -> Int { try store.sessionCount() }
        func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) { try store.keepAppDescription(document, version: version) }
        func appDescription(version: String) throws(StorageError) -> [UInt8]? { try store.appDescription(version: version) }
        func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
            try store.experimentUnits(of: experiment, seed: seed)
        }
        func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int { try store.deleteExperimentUnits(of: unit) }
        func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] { try store.commit(writes) }
        func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
            try store.expire(unusedSince: cutoff, answersBefore: answersBefore)
        }
        func checkReachable() throws(StorageError) {}
        func checkWritable() throws(StorageError) {}
        func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
            try analytics.recordAnalytics(entries, updated: updated)
        }
        func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] { try analytics.analyticsCounts(from: from, until: until) }
        func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] { try analytics.analyticsPaths(updatedSince: updatedSince) }
        func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int { try analytics.pruneAnalyticsPaths(updatedBefore: before) }
    }

    @Test(arguments: [UInt64(5), 24, 71])
    func everyReadOfValuesAnswersAsTheRecordsWould(seed: UInt64) throws {
        let values = try CoreHarness()
        let records = RecordsInMemory()
        let recording = try CoreHarness(storage: records)
        #expect(values.core.writesValues && !recording.core.writesValues)
        let (onValues, _) = try values.create()
        let (onRecords, _) = try recording.create()
        var random = SeededGenerator(state: seed)
        for _ in 0..<150 {
            let command = CorePropertyTests.command(for: try values.state(of: onValues), screens: ["profile", "followers", "stats"], &random)
            let (left, right) = (values.run(command, on: onValues), recording.run(command, on: onRecords))
            let (applied, appliedToo) = ((try? left.get()) != nil, (try? right.get()) != nil)
            #expect(applied == appliedToo)
        }
        let kept = try #require(try values.core.store.loadSession(onValues.id, eventTail: 1000))
        let written = try #require(try records.store.loadSession(onRecords.id, eventTail: 1000))
        // The head differs (values keep the current state as the head; records, the last snapshot
        // due), and so do the events read with it; the state read back does not.
        #expect(try Self.document(of: kept) == Self.document(of: written))
        let newest = max(written.record.lastEvent, written.events.last?.seq ?? 0)
        #expect(kept.record.lastEvent == newest && kept.lists.map(\.body) == written.lists.map(\.body))
        #expect(try Self.timeless(values.core.store.events(of: onValues.id, after: 0, through: newest))
            == Self.timeless(records.store.events(of: onRecords.id, after: 0, through: newest)))
        var rebuilt = 0
        for version in stride(from: 1, through: kept.record.version, by: 7) {
            let read = try Self.timeless(values.core.store.events(of: onValues.id, rebuilding: version, through: newest))
            #expect(read == Self.timeless(try records.store.events(of: onRecords.id, rebuilding: version, through: newest)))
            rebuilt += read.isEmpty ? 0 : 1
        }
        #expect(rebuilt > 0 && !written.lists.isEmpty, "checkpoints and lists were written")
        for list in written.lists {
            for version in 1...list.version {
                #expect(try values.core.store.listVersion(of: onValues.id, node: list.node, version: version)?.body
                    == records.store.listVersion(of: onRecords.id, node: list.node, version: version)?.body)
            }
        }
    }

    /// Event records as text, each without the time it was made (the two cores ran apart).
    static func timeless(_ events: [EventRecord]) -> [String] {
        events.map { "\($0.seq) " + String(decoding: $0.body, as: UTF8.self).replacing(/"at":[0-9]+,?/, with: "") }
    }

    /// The state a stored session reads back as, as its document (ids aside).
    static func document(of stored: StoredSession) throws -> String {
        let events = try stored.events.map { record throws(SnapshotError) in try SessionEvent(record: record) }
        let state = try SessionState.read(stored, events: events, app: .tabs, limits: SessionConfiguration().limits).state
        return ReplayDocumentTests.document(of: state)
    }
}
