import Dispatch
import Foundation
import Locking
import MinervaSessions
import MinervaSQLite

/// The real SQLite store with faults on demand: commits that fail (as on a full disk) or that
/// wait until the test lets them through (a slow disk).
final class FaultyStorage: SessionStorage {
    let store: SQLiteSessionStorage
    let path: String
    private let failing = Locked(false)
    private let gate = Locked<DispatchSemaphore?>(nil)
    private let commits = Locked(0)

    private let ownsFile: Bool

    /// The store on a database file of its own, removed with it.
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-core-\(UUID().uuidString).sqlite").path
        store = try SQLiteSessionStorage(path: path)
        ownsFile = true
    }

    /// The store on a database file that others share.
    init(path: String) throws {
        self.path = path
        store = try SQLiteSessionStorage(path: path)
        ownsFile = false
    }

    deinit {
        guard ownsFile else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Makes every commit fail until set back.
    func setFailing(_ value: Bool) {
        failing.withLock { $0 = value }
    }

    /// Holds every commit until ``release()``.
    func hold() {
        gate.withLock { $0 = DispatchSemaphore(value: 0) }
    }

    /// Lets held commits through, and later ones straight away.
    func release() {
        let semaphore = gate.withLock { gate in
            defer { gate = nil }
            return gate
        }
        for _ in 0..<64 { semaphore?.signal() }
    }

    /// Whether commits fail now.
    var isFailing: Bool { failing.withLock { $0 } }

    /// How many groups were committed.
    var commitCount: Int { commits.withLock { $0 } }

    func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
        gate.withLock { $0 }?.wait()
        if failing.withLock({ $0 }) { throw StorageError("disk full (injected)") }
        commits.withLock { $0 += 1 }
        return try store.commit(writes)
    }

    func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
        try store.loadSession(id, eventTail: eventTail)
    }

    func tokenHash(of id: String) throws(StorageError) -> [UInt8]? {
        try store.tokenHash(of: id)
    }

    func grants(of id: String) throws(StorageError) -> [TokenGrant] {
        try store.grants(of: id)
    }

    func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant? {
        try store.grant(of: id, hash: hash)
    }

    func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition {
        try store.addGrant(grant, to: id, limit: limit)
    }

    func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool {
        try store.revokeGrant(grantID, of: id)
    }

    func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try store.events(of: id, after: after, through: last)
    }

    func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try store.events(of: id, rebuilding: version, through: last)
    }

    func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
        try store.listVersion(of: id, node: node, version: version)
    }

    func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? {
        try store.loadAnswer(of: id, key: key)
    }

    func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? {
        try store.loadCreation(key)
    }

    func sessionCount() throws(StorageError) -> Int {
        try store.sessionCount()
    }

    func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
        try store.expire(unusedSince: cutoff, answersBefore: answersBefore)
    }

    func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) {
        if failing.withLock({ $0 }) { throw StorageError("disk full (injected)") }
        try store.keepAppDescription(document, version: version)
    }

    func appDescription(version: String) throws(StorageError) -> [UInt8]? {
        try store.appDescription(version: version)
    }

    func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
        try store.experimentUnits(of: experiment, seed: seed)
    }

    func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int {
        try store.deleteExperimentUnits(of: unit)
    }
}

/// Flow analytics go to the SQLite store itself, faults or not.
extension FaultyStorage: AnalyticsStorage {
    func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
        try store.recordAnalytics(entries, updated: updated)
    }

    func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] {
        try store.analyticsCounts(from: from, until: until)
    }

    func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] {
        try store.analyticsPaths(updatedSince: updatedSince)
    }

    func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int {
        try store.pruneAnalyticsPaths(updatedBefore: before)
    }
}
