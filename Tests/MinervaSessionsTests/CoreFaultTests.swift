import Foundation
import Dispatch
import Locking
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import Testing

/// Store → swap → publish: what a refusing or slow store does to what anyone can see.
@Suite struct CoreFaultTests {
    @Test func aRefusedWriteChangesNothingUsesNoNumberAndWakesNobody() throws {
        let storage = try FaultyStorage()
        let harness = try CoreHarness(storage: storage)
        let (session, _) = try harness.create()
        let recorder = Recorder()
        harness.core.observe(session) { _, _ in recorder }
        let before = try harness.state(of: session)

        storage.setFailing(true)
        let refused = harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session)
        guard case .failure(let error) = refused, case .unavailable = error.category else {
            Issue.record("expected unavailable, got \(refused)")
            return
        }
        let after = try harness.state(of: session)
        #expect(after.version == before.version && after.lastEvent == before.lastEvent && after.tree == before.tree)
        #expect(recorder.received.isEmpty)

        storage.setFailing(false)
        guard case .success(let result) = harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session) else {
            Issue.record("the store recovered but the push failed")
            return
        }
        // The version and the event number the refused write would have used are the next ones used.
        #expect(result.events.map(\.seq) == [1])
        #expect(result.events.map(\.version) == [before.version + 1])
        #expect(recorder.received.map { $0.map(\.seq) } == [[1]])
        let reread = try #require(try storage.loadSession(session.id, eventTail: 10))
        #expect(reread.record.version == before.version + 1 && reread.events.map(\.seq) == [1])
    }

    @Test func nothingIsVisibleBeforeTheStoreCommits() throws {
        let storage = try FaultyStorage()
        let harness = try CoreHarness(storage: storage)
        let (session, token) = try harness.create()
        let recorder = Recorder()
        harness.core.observe(session) { _, _ in recorder }

        storage.hold()
        let outcome = Locked<Result<MutationResult, SessionError>?>(nil)
        harness.start(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session) { result in outcome.withLock { $0 = result } }
        // A second mutation waits behind the first; a read sees the last committed state.
        harness.start(.selectTab("account"), on: session) { _ in }
        Thread.sleepBriefly()
        #expect(outcome.withLock { $0 } == nil)
        #expect(try harness.state(of: session).version == 1)
        #expect(try harness.core.session(session.id, token: token).id == session.id)
        #expect(recorder.received.isEmpty)

        storage.release()
        let deadline = ContinuousClock.now + .seconds(5)
        while recorder.received.count < 2, ContinuousClock.now < deadline { Thread.sleepBriefly() }
        #expect(recorder.received.map { $0.map(\.type) } == [["added"], ["tabSelected"]])
        #expect(try harness.state(of: session).version == 3)
    }

    @Test func aCreationTheStoreRefusesLeavesNoSessionAndItsKeyFree() throws {
        let storage = try FaultyStorage()
        let harness = try CoreHarness(storage: storage)
        storage.setFailing(true)
        let key = IdempotencyKey(key: "create-1", fingerprint: 7)
        let refused = harness.wait { completion in
            harness.core.create(layout: .stack, deepLink: nil, key: key, answer: { StoredAnswer(status: 201, headers: [], body: Array($0.id.utf8)) }, completion: completion)
        }
        guard case .failure = refused else {
            Issue.record("expected a refusal")
            return
        }
        #expect(harness.core.sessionCount == 0)
        storage.setFailing(false)
        let created = try harness.wait { completion in
            harness.core.create(layout: .stack, deepLink: nil, key: key, answer: { StoredAnswer(status: 201, headers: [], body: Array($0.id.utf8)) }, completion: completion)
        }.get()
        let again = try harness.wait { completion in
            harness.core.create(layout: .stack, deepLink: nil, key: key, answer: { StoredAnswer(status: 201, headers: [], body: Array($0.id.utf8)) }, completion: completion)
        }.get()
        #expect(again.body == created.body)
        #expect(harness.core.sessionCount == 1)
        // The key is stored with the session: a new process answers it the same.
        let restarted = try CoreHarness(storage: storage)
        let replayed = try restarted.wait { completion in
            restarted.core.create(layout: .stack, deepLink: nil, key: key, answer: { StoredAnswer(status: 201, headers: [], body: Array($0.id.utf8)) }, completion: completion)
        }.get()
        #expect(replayed.body == created.body)
    }

    @Test func mutationsOfManySessionsShareCommits() throws {
        let storage = try FaultyStorage()
        let harness = try CoreHarness(storage: storage)
        let sessions = try (0..<20).map { _ in try harness.create().session }
        let before = storage.commitCount
        storage.hold()
        let done = DispatchGroup()
        for session in sessions {
            done.enter()
            harness.start(.selectTab("account"), on: session) { _ in done.leave() }
        }
        storage.release()
        done.wait()
        // The first commit may take one write alone; the others wait and go together.
        #expect(storage.commitCount - before < sessions.count)
        for session in sessions { #expect(try harness.state(of: session).tree.selectedTab == "account") }
    }
}

extension Thread {
    /// Gives other threads a moment.
    static func sleepBriefly() {
        usleep(20_000)
    }
}
