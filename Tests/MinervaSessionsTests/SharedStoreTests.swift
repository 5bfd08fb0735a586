import Foundation
import Locking
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import MinervaSQLite
import Synchronization
import Testing

/// Two processes' cores on one SQLite file, told of each other's commits as a shared store's
/// notifications would tell them: any core serves any session, with the semantics of one.
@Suite struct SharedStoreTests {
    /// Carries each core's commit notices to the others.
    final class CommitBus: Sendable {
        private let handlers = Locked<[(owner: ObjectIdentifier, handler: @Sendable (CommitNotice) -> Void)]>([])
        let muted = Locked(false)
        /// Whether notices carry the changes (as PostgreSQL's do when they fit).
        let carriesChanges = Locked(true)
        /// The app versions announced, by generation (as the shared store orders them).
        let appVersions = Locked<[String: Int]>([:])

        func add(_ owner: ObjectIdentifier, _ handler: @escaping @Sendable (CommitNotice) -> Void) {
            handlers.withLock { $0.append((owner, handler)) }
        }

        func announce(_ notices: [CommitNotice], from owner: ObjectIdentifier) {
            guard !muted.withLock({ $0 }) else { return }
            for entry in handlers.withLock({ $0 }) where entry.owner != owner {
                for notice in notices { entry.handler(notice) }
            }
        }
    }

    /// The real SQLite store (with faults on demand), announcing its commits on the bus.
    final class SharedSQLite: SharedSessionStorage, AnalyticsStorage {
        let store: FaultyStorage
        let bus: CommitBus
        /// How many times a core read a whole session (not its tail).
        let wholeReads = Atomic(0)
        /// How many times a core read a session's tail.
        let tailReads = Atomic(0)

        init(path: String, bus: CommitBus) throws {
            store = try FaultyStorage(path: path)
            self.bus = bus
        }

        func observeCommits(_ handler: @escaping @Sendable (CommitNotice) -> Void, resync: @escaping @Sendable () -> Void) {
            bus.add(ObjectIdentifier(self), handler)
        }

        func followingChanged() {}

        func loadSession(_ id: String, eventTail: Int, unlessAt known: SessionHead) throws(StorageError) -> SessionReading {
            wholeReads.add(1, ordering: .relaxed)
            guard let stored = try store.loadSession(id, eventTail: eventTail) else { return .missing }
            return max(stored.record.lastEvent, stored.events.last?.seq ?? 0) == known.lastEvent ? .unchanged : .changed(stored)
        }

        func loadTail(of id: String, after known: Int) throws(StorageError) -> StoredTail? {
            tailReads.add(1, ordering: .relaxed)
            guard let stored = try store.loadSession(id, eventTail: 0) else { return nil }
            let newest = max(stored.record.lastEvent, stored.events.last?.seq ?? 0)
            let events = newest > known ? try store.events(of: id, after: known, through: newest) : []
            return StoredTail(
                head: SessionHead(version: stored.record.version, lastEvent: stored.record.lastEvent), appVersion: stored.record.appVersion,
                events: events)
        }

        func announceAppVersion(_ version: String) throws(StorageError) {
            guard !store.isFailing else { throw StorageError("the disk is full") }
            bus.appVersions.withLock { generations in
                let newest = generations.values.max() ?? 0
                if generations[version] != newest { generations[version] = newest + 1 }
            }
        }

        func appVersionGenerations(_ first: String, _ second: String) throws(StorageError) -> [String: Int] {
            bus.appVersions.withLock { $0.filter { $0.key == first || $0.key == second } }
        }

        func lastEvents(of ids: [String]) throws(StorageError) -> [String: Int] {
            var found: [String: Int] = [:]
            for id in ids {
                if let stored = try store.loadSession(id, eventTail: 0) { found[id] = max(stored.record.lastEvent, stored.events.last?.seq ?? 0) }
            }
            return found
        }

        func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
            let outcomes = try store.commit(writes)
            var notices: [CommitNotice] = []
            for (write, outcome) in zip(writes, outcomes) where outcome == .committed {
                switch write {
                case .session(let change): notices.append(CommitNotice(of: change) { _ in bus.carriesChanges.withLock { $0 } })
                case .delete(let id): notices.append(CommitNotice(session: id, lastEvent: 0, deleted: true))
                case .touch: break
                }
            }
            bus.announce(notices, from: ObjectIdentifier(self))
            return outcomes
        }

        func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
            wholeReads.add(1, ordering: .relaxed)
            return try store.loadSession(id, eventTail: eventTail)
        }
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
        func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? { try store.loadCreation(key) }
        func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? { try store.loadAnswer(of: id, key: key) }
        func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
            try store.listVersion(of: id, node: node, version: version)
        }
        func sessionCount() throws(StorageError) -> Int { try store.sessionCount() }
        func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) {
            try store.keepAppDescription(document, version: version)
        }
        func appDescription(version: String) throws(StorageError) -> [UInt8]? { try store.appDescription(version: version) }
        func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
            try store.experimentUnits(of: experiment, seed: seed)
        }
        func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int { try store.deleteExperimentUnits(of: unit) }
        func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
            try store.expire(unusedSince: cutoff, answersBefore: answersBefore)
        }
        func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
            try store.recordAnalytics(entries, updated: updated)
        }
        func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] { try store.analyticsCounts(from: from, until: until) }
        func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] { try store.analyticsPaths(updatedSince: updatedSince) }
        func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int { try store.pruneAnalyticsPaths(updatedBefore: before) }
    }

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-shared-\(UUID().uuidString).sqlite").path
    let bus = CommitBus()

    func core() throws -> CoreHarness {
        try core(on: try SharedSQLite(path: path, bus: bus))
    }

    func core(on storage: SharedSQLite) throws -> CoreHarness {
        try CoreHarness(storage: storage)
    }

    /// Two cores on one store: a session made on A, followed on B.
    func sessionFollowedOnB() throws -> (
        a: CoreHarness, b: CoreHarness, onA: LiveSession, token: String, onB: LiveSession, heardOnB: Recorder
    ) {
        let a = try core()
        let b = try core()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        let heardOnB = Recorder()
        b.core.observe(onB) { _, _ in heardOnB }
        return (a, b, onA, token, onB, heardOnB)
    }

    /// Two cores on one store, A's store at hand (to hold or fail its commits): a session made on
    /// A, followed on A.
    func sessionFollowedOnA() throws -> (
        storageA: SharedSQLite, a: CoreHarness, b: CoreHarness, onA: LiveSession, token: String, onB: LiveSession, heardOnA: Recorder
    ) {
        let storageA = try SharedSQLite(path: path, bus: bus)
        let a = try core(on: storageA)
        let b = try core()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        let heardOnA = Recorder()
        a.core.observe(onA) { _, _ in heardOnA }
        return (storageA, a, b, onA, token, onB, heardOnA)
    }

    /// Removes the shared database file and its WAL files.
    func removeDatabase() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func eachCoreServesTheOthersSessionsAndHearsTheirChanges() throws {
        defer { removeDatabase() }
        let (a, b, onA, token, onB, heardOnB) = try sessionFollowedOnB()

        _ = try a.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onA).get()
        #expect(try b.state(of: onB).version == 2)
        #expect(heardOnB.received.map { $0.map(\.type) } == [["added"]])

        // B is up to date: its own mutation applies and numbers on.
        let onBResult = try b.run(.selectTab("account"), on: onB).get()
        #expect(onBResult.events.map(\.seq) == [2])
        // Nobody follows it on A, which holds it: A replays B's change from its notice.
        #expect(try a.state(of: onA).version == 3)
        #expect(try a.state(of: try a.core.session(onA.id, token: token)).version == 3)

        // A misses B's next change (no notice): its write conflicts, it catches up and applies on top.
        bus.muted.withLock { $0 = true }
        _ = try b.run(.selectTab("home"), on: onB).get()
        bus.muted.withLock { $0 = false }
        let onAResult = try a.run(.flags(set: ["signedIn"], clear: []), on: onA).get()
        #expect(onAResult.events.map(\.seq) == [4] && onAResult.events.map(\.version) == [5])
        #expect(try b.state(of: onB).lastEvent == 4)
        #expect(heardOnB.received.last?.map(\.type) == ["flagsChanged"])

        // Deleting on one ends the other's followers.
        _ = b.wait { completion in b.core.delete(onB, precondition: nil, completion: completion) }
        #expect(heardOnB.sawEnd)
        #expect(throws: SessionError.self) { try a.core.session(onA.id, token: token) }
    }

    @Test func aFollowerHearsEveryEventOfACatchUpLongerThanTheLogKeeps() throws {
        defer { removeDatabase() }
        let (a, b, onA, token, _, heardOnB) = try sessionFollowedOnB()
        // B hears none of A's commits: more events than a session's in-memory log keeps (64).
        bus.muted.withLock { $0 = true }
        for round in 0..<50 {
            _ = try a.run(.push(from: nil, screen: "profile", params: ["userId": .string(String(round))]), on: onA).get()
            _ = try a.run(.pop(navigator: nil, to: nil, toRoot: false), on: onA).get()
        }
        bus.muted.withLock { $0 = false }
        let last = try a.state(of: onA).lastEvent
        #expect(last > 64)
        // B's next use reads the session again and publishes every block it missed, in order.
        _ = try b.core.session(onA.id, token: token)
        #expect(heardOnB.received.flatMap { $0.map(\.seq) } == Array(1...last))
    }

    @Test func aCoreWhoseOwnWriteFailedStillHearsWhatAnotherCommittedMeanwhile() throws {
        defer { removeDatabase() }
        let (storageA, a, b, onA, _, onB, heardOnA) = try sessionFollowedOnA()

        storageA.store.hold()
        storageA.store.setFailing(true)
        let refused = Locked<Result<MutationResult, SessionError>?>(nil)
        a.start(.selectTab("account"), on: onA) { outcome in refused.withLock { $0 = outcome } }
        _ = try b.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onB).get()
        storageA.store.release()
        let deadline = ContinuousClock.now + .seconds(5)
        while refused.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleepBriefly() }
        storageA.store.setFailing(false)
        guard case .failure = refused.withLock({ $0 }) else {
            Issue.record("the held write should have failed")
            return
        }
        // The failed write's answer comes first; the catching up follows on the writer.
        while heardOnA.received.isEmpty, ContinuousClock.now < deadline { Thread.sleepBriefly() }
        #expect(heardOnA.received.map { $0.map(\.type) } == [["added"]], "A's follower missed B's change")
        #expect(try a.state(of: onA).version == 2)
    }

    @Test func aReadWhileThisCoresOwnWriteIsWithTheStoreAnswersWhatAnotherCommitted() throws {
        defer { removeDatabase() }
        let (storageA, a, b, onA, token, onB, heardOnA) = try sessionFollowedOnA()

        // A's write is with the store (held) while B commits a change of the same session.
        storageA.store.hold()
        let written = Locked<Result<MutationResult, SessionError>?>(nil)
        a.start(.selectTab("account"), on: onA) { outcome in written.withLock { $0 = outcome } }
        _ = try b.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onB).get()
        // A read on A, and a version precondition checked there, see B's change at once.
        let read = try a.core.session(onA.id, token: token)
        #expect(try a.state(of: read).version == 2)
        #expect(throws: Never.self) { try a.core.checkPrecondition(read) { $0 == 2 } }

        // A's write started from version 1: it conflicts, and runs again on top of B's change.
        storageA.store.release()
        let deadline = ContinuousClock.now + .seconds(5)
        while written.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleepBriefly() }
        let result = try #require(written.withLock { $0 }).get()
        #expect(result.events.map(\.version) == [3])
        #expect(try a.state(of: onA).version == 3 && b.core.session(onA.id, token: token).slot.withLock { $0.state.version } == 3)
        // A's follower heard each version once, in order.
        #expect(heardOnA.received.map { $0.map(\.version) } == [[2], [3]])
    }

    @Test func aWriteInFlightWhenAnotherCoreDeletesTheSessionAnswersUnauthorized() throws {
        defer { removeDatabase() }
        let (storageA, a, b, onA, token, onB, heardOnA) = try sessionFollowedOnA()
        storageA.store.hold()
        let written = Locked<Result<MutationResult, SessionError>?>(nil)
        a.start(.selectTab("account"), on: onA) { outcome in written.withLock { $0 = outcome } }
        _ = b.wait { completion in b.core.delete(onB, precondition: nil, completion: completion) }
        // A finds it gone (its next use reads the store) while its own write is still held.
        #expect(throws: SessionError.self) { try a.core.session(onA.id, token: token) }
        #expect(heardOnA.sawEnd)
        storageA.store.release()
        let deadline = ContinuousClock.now + .seconds(5)
        while written.withLock({ $0 }) == nil, ContinuousClock.now < deadline { Thread.sleepBriefly() }
        guard case .failure(let error) = try #require(written.withLock { $0 }) else {
            Issue.record("a write to a deleted session was acknowledged")
            return
        }
        #expect(error.category == .unauthorized)
    }
}
