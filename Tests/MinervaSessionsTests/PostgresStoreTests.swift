import Dispatch
import Foundation
import Locking
import Logging
import MinervaCoordinator
import MinervaModel
@testable import MinervaPostgres
@testable import MinervaSessions
import TestSupport
import Testing

/// The database the PostgreSQL tests use: `MINERVA_TEST_POSTGRES` (the test command starts a
/// private cluster and sets it).
let testPostgresURL = ProcessInfo.processInfo.environment["MINERVA_TEST_POSTGRES"]

/// Cores of separate "instances" (each with a store of its own: its own connections, its own
/// listener) on one real PostgreSQL database: any core serves any session, with the semantics
/// of one, through version-checked writes and real notifications.
@Suite(.enabled(if: testPostgresURL != nil, "set MINERVA_TEST_POSTGRES to a PostgreSQL database URL"))
struct PostgresStoreTests {
    /// The stores a test opened, closed when the test's suite instance goes (its listeners stop).
    final class Opened: Sendable {
        let stores = Locked<[PostgresSessionStorage]>([])

        func add(_ store: PostgresSessionStorage) -> PostgresSessionStorage {
            stores.withLock { $0.append(store) }
            return store
        }

        deinit {
            for store in stores.withLock({ $0 }) { store.close() }
        }
    }

    let opened = Opened()

    func store(connections: Int = 4) throws -> PostgresSessionStorage {
        opened.add(try PostgresSessionStorage(url: testPostgresURL!, connections: connections, logger: Logger(label: "test")))
    }

    func instance() throws -> CoreHarness {
        try CoreHarness(storage: try store())
    }

    /// Waits up to 5 s for `condition`.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while try !condition() {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleepBriefly()
        }
        return true
    }

    @Test func aChangeOnOneInstanceIsReadAtOnceAndHeardOnAnother() throws {
        let a = try instance()
        let b = try instance()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        let heardOnB = Recorder()
        b.core.observe(onB) { _, _ in heardOnB }

        _ = try a.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onA).get()
        // Read-your-writes: the next lookup on B checks the stored version, whatever B's cache holds.
        let again = try b.core.session(onA.id, token: token)
        #expect(try b.state(of: again).version == 2)
        #expect(eventually { heardOnB.received.map { $0.map(\.type) } == [["added"]] })

        // B reads only the events it missed, and its log goes on from what it had.
        _ = try a.run(.selectTab("account"), on: onA).get()
        _ = try a.run(.selectTab("home"), on: onA).get()
        let later = try b.core.session(onA.id, token: token)
        #expect(b.log(of: later).events.map(\.seq) == [1, 2, 3])

        // B numbers on from A's events.
        let onBResult = try b.run(.selectTab("account"), on: later).get()
        #expect(onBResult.events.map(\.seq) == [4])
        #expect(try a.state(of: try a.core.session(onA.id, token: token)).version == 5)

        // Deleting on A ends B's followers.
        _ = a.wait { completion in a.core.delete(onA, precondition: nil, completion: completion) }
        #expect(eventually { heardOnB.sawEnd })
        #expect(throws: SessionError.self) { try b.core.session(onA.id, token: token) }
    }

    @Test func anInstanceHoldingASessionReplaysTheChangesAnotherAnnounces() throws {
        let a = try instance()
        let b = try instance()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        for tab in ["account", "home", "account"] { _ = try a.run(.selectTab(tab), on: onA).get() }
        _ = try a.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onA).get()
        // Nobody follows it on B and B does not use it: the notices alone bring B's copy along.
        #expect(eventually { onB.slot.withLock { $0.state.lastEvent } == 4 })
        #expect(ReplayDocumentTests.document(of: onB.slot.withLock { $0.state }) == ReplayDocumentTests.document(of: try a.state(of: onA)))
        #expect(onB.slot.withLock { $0.storedHead } == onA.slot.withLock { $0.storedHead })
        // B's own change then starts from the stored state, and A replays it in turn.
        #expect(try b.run(.selectTab("home"), on: onB).get().events.map(\.seq) == [5])
        #expect(eventually { onA.slot.withLock { $0.state.lastEvent } == 5 })
    }

    /// `NOTIFY` needs no privilege: a notice sent by anyone but an instance (sealed with another
    /// key, a real notice's seal under another session's first line, an unsealed deletion) is
    /// not heard: its change is not replayed, the session not ended.
    @Test func aNoticeThatNoInstanceSealedIsNotReplayed() throws {
        let a = try instance()
        let b = try instance()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        // A real change of another session, as a forger would put it in a notice of this one.
        let (other, _) = try a.create()
        _ = try a.run(.selectTab("account"), on: other).get()
        let change = NoticedChange(appVersion: onB.slot.withLock { $0.state.appVersion }, events: a.log(of: other).events.map(\.record), head: nil)
        let forged = CommitNotice(session: onA.id, lastEvent: 1, deleted: false, change: change).payload(from: "forger", sealing: CommitNotice.freshKey())
        let sealedElsewhere = String(
            decoding: CommitNotice(session: other.id, lastEvent: 1, deleted: false, change: change).payload(from: "forger", sealing: try store().noticeKey),
            as: UTF8.self
        ).split(separator: " ")[3]
        let connection = try PostgresConnection.open(testPostgresURL!, deadline: .now + .seconds(2))
        // And an unsealed deletion, which would end the session here.
        for payload in [String(decoding: forged, as: UTF8.self), "forger \(onA.id) 1 \(sealedElsewhere)", "forger \(onA.id) -"] {
            try connection.query("SELECT pg_notify('minerva_commits', $1)", [.text(payload)], until: .now + .seconds(2))
        }
        // A real change after them is replayed: the forged ones were heard first and left out.
        _ = try a.run(.navigate(from: nil, screen: "profile", params: ["userId": "1"]), on: onA).get()
        #expect(eventually { onB.slot.withLock { $0.state.lastEvent } == 1 })
        #expect(ReplayDocumentTests.document(of: onB.slot.withLock { $0.state }) == ReplayDocumentTests.document(of: try a.state(of: onA)))
        #expect(!onB.slot.withLock { $0.turn.isClosed })
    }

    @Test func concurrentMutationsThroughTwoInstancesAllApplyInOneOrder() throws {
        let a = try instance()
        let b = try instance()
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        let heardOnA = Recorder()
        a.core.observe(onA) { _, _ in heardOnA }
        let perInstance = 20
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let (harness, session) = side == 0 ? (a, onA) : (b, onB)
            for index in 0..<perInstance {
                let flag = "f\(side)-\(index)"
                if case .failure = harness.run(.flags(set: [flag], clear: []), on: session) { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let state = try a.state(of: try a.core.session(onA.id, token: token))
        #expect(state.version == 1 + 2 * perInstance)
        #expect(state.tree.flags.count == 2 * perInstance)
        // A's follower heard every event once, in order, whichever instance made it.
        #expect(eventually { heardOnA.received.joined().map(\.seq) == Array(1...(2 * perInstance)) })
    }

    @Test func anIdempotencyKeyRetriedOnAnotherInstanceAppliesOnce() throws {
        let a = try instance()
        let b = try instance()
        let (onA, token) = try a.create()
        let key = IdempotencyKey(key: "retry-\(UUID())", fingerprint: 11)
        let first = try a.run(.flags(set: ["signedIn"], clear: []), on: onA, key: key).get()
        let onB = try b.core.session(onA.id, token: token)
        let retried = try b.run(.flags(set: ["signedIn"], clear: []), on: onB, key: key).get()
        #expect(retried.replayed && retried.answer.body == first.answer.body)
        #expect(try b.state(of: onB).version == 2)
    }

    @Test func aCreationKeyUsedOnTwoInstancesAtOnceMakesOneSession() throws {
        let a = try instance()
        let b = try instance()
        let key = IdempotencyKey(key: "create-\(UUID())", fingerprint: 5)
        let answers = Locked<[String]>([])
        @Sendable func create(on harness: CoreHarness) {
            let outcome = harness.wait { completion in
                harness.core.create(
                    layout: .stack, deepLink: nil, key: key,
                    answer: { StoredAnswer(status: 201, headers: [], body: Array("\($0.token):\($0.id)".utf8)) }, completion: completion)
            }
            if case .success(let answer) = outcome { answers.withLock { $0.append(String(decoding: answer.body, as: UTF8.self)) } }
        }
        // Two at once on each instance (the loser's second request waits for its first), then a
        // retry on each once all have answered.
        DispatchQueue.concurrentPerform(iterations: 4) { index in create(on: index % 2 == 0 ? a : b) }
        create(on: a)
        create(on: b)
        let made = answers.withLock { $0 }
        #expect(made.count == 6 && Set(made).count == 1, "\(made)")
        // The one answer names a stored session, served by both.
        let parts = try #require(made.first?.split(separator: ":"))
        _ = try a.core.session(String(parts[1]), token: String(parts[0]))
        _ = try b.core.session(String(parts[1]), token: String(parts[0]))
    }

    @Test func aWriteAgainstAStaleVersionConflictsAndChangesNothing() throws {
        let store = try store(connections: 2)
        let a = try CoreHarness(storage: store)
        let (session, _) = try a.create()
        let stored = try #require(try store.loadSession(session.id, eventTail: 10))
        var stale = SessionWrite(record: stored.record, expectedLastEvent: stored.record.lastEvent + 1)
        stale.newEvents = [EventRecord(seq: 1, body: Array("{}".utf8))]
        #expect(try store.commit([.session(stale)]) == [.conflict])
        #expect(try store.events(of: session.id, after: 0, through: 10).isEmpty)
        guard case .unchanged = try store.loadSession(session.id, eventTail: 10, unlessAt: SessionHead(version: 1, lastEvent: 0)) else {
            Issue.record("the session changed")
            return
        }
        guard case .changed(let read) = try store.loadSession(session.id, eventTail: 10, unlessAt: SessionHead(version: 1, lastEvent: -1)),
            read.record.version == 1, read.record.state == stored.record.state
        else {
            Issue.record("a stale head did not read the session")
            return
        }
        guard case .missing = try store.loadSession("s_none", eventTail: 10, unlessAt: SessionHead(version: 1, lastEvent: 0)) else {
            Issue.record("a missing session was found")
            return
        }
    }

    @Test func aSessionMovesForwardOnlyWhenAnInstanceReloadsAndOnlyThatWay() throws {
        // Versions of this test's own: other tests announce theirs in the same database.
        let (v1, v2) = ("v1-\(UUID().uuidString)", "v2-\(UUID().uuidString)")
        let a = try instance()
        let b = try instance()
        try a.core.replaceApp(.tabs, version: v1)
        try b.core.replaceApp(.tabs, version: v1)
        let (onA, token) = try a.create()
        try a.core.replaceApp(AppVersionTests.withInbox, version: v2)
        #expect(try a.settled(try a.core.session(onA.id, token: token)).appVersion == v2)
        #expect {
            try b.core.session(onA.id, token: token)
        } throws: { ($0 as? SessionError)?.category == .appVersionConflict }
        try b.core.replaceApp(AppVersionTests.withInbox, version: v2)
        let onB = try b.core.session(onA.id, token: token)
        #expect(try b.run(.push(from: nil, screen: "inbox", params: [:]), on: onB).get().events.map(\.version) == [3])
    }

    /// An instance of the release before calls the group function with the arguments it knows
    /// while others are upgraded: its writes commit (and count in no experiment).
    @Test func theGroupFunctionOfTheReleaseBeforeStillCommits() throws {
        let store = try store()
        let id = "s_" + Token.random(bytes: 8)
        var creation = SessionWrite(
            record: SessionRecord(
                id: id, tokenHash: [1], version: 1, lastEvent: 0, firstEvent: 1, appVersion: "app", state: Array("v1".utf8), lastUsed: 1, createdAt: 1),
            expectedLastEvent: nil)
        creation.experimentUnits = [ExperimentUnitRecord(session: id, experiment: "e", seed: "e", unit: id, variant: "control", assigned: 1)]
        let group = PostgresGroupArguments([.session(creation)], order: [0])
        let before = Array(group.parameters.prefix(39))
        let statement = "SELECT minerva_commit_group(\((1...before.count).map { "$\($0)" }.joined(separator: ", ")))"
        let conflicts = try store.call { connection, deadline throws(PostgresError) in try connection.query(statement, before, until: deadline).int32Array(0, 0) }
        #expect(conflicts.isEmpty)
        #expect(try store.loadSession(id, eventTail: 1)?.record.version == 1)
        #expect(try store.experimentUnits(of: "e", seed: "e").isEmpty)
    }

    @Test func aDatabaseThatCannotBeReachedFailsFast() {
        let started = ContinuousClock.now
        #expect(throws: StorageError.self) {
            // Port 1 on loopback: nothing listens, the connection is refused at once.
            _ = try PostgresSessionStorage(url: "postgres://nobody@127.0.0.1:1/none", connections: 1, logger: Logger(label: "test"))
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(throws: StorageError.self) {
            _ = try PostgresSessionStorage(url: "postgres://host:notaport/db", connections: 1, logger: Logger(label: "test"))
        }
    }
}
