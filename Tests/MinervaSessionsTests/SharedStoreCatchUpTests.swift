import MinervaCoordinator
import MinervaList
import MinervaModel
@testable import MinervaSessions
import Testing
import TestSupport

extension SharedStoreTests {
    /// A core that missed another's changes (it heard no notice) catches up on its next use by
    /// replaying the events after those it holds: after every round of random changes on A, the
    /// state B serves is the one a core that reads the session whole serves, and B read the
    /// session whole only after a restore (whose block says not where the nodes it brings back
    /// stood); a list's new cells (not in its event) make B read it whole once more.
    @Test(arguments: [UInt64(3), 17, 91])
    func aCoreBehindReplaysWhatItMissedToTheStateAWholeReadGives(seed: UInt64) throws {
        defer { removeDatabase() }
        let storageB = try SharedSQLite(path: path, bus: bus)
        let a = try core(), b = try core(on: storageB)
        let (onA, token) = try a.create()
        _ = try b.core.session(onA.id, token: token)
        bus.muted.withLock { $0 = true }
        let readBefore = storageB.wholeReads.load(ordering: .relaxed)
        var random = SeededGenerator(state: seed)
        var applied = 0
        var restores = 0
        for round in 0..<60 {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let command = ReplayDocumentTests.command(for: try a.state(of: onA), app: .tabs, &random)
                if case .success = a.run(command, on: onA) { applied += 1 }
            }
            let version = try a.state(of: onA).version
            if round % 12 == 11, version > 2 {
                let target = a.core.restoreTarget(of: onA, version: Int.random(in: 1..<version, using: &random))
                if case .success = a.run(.restore(target), on: onA) { restores += 1 }
            }
            let caughtUp = try b.state(of: try b.core.session(onA.id, token: token))
            let whole = try core().state(of: try core().core.session(onA.id, token: token))
            #expect(ReplayDocumentTests.document(of: caughtUp) == ReplayDocumentTests.document(of: whole))
            #expect(caughtUp.structuralVersion == whole.structuralVersion)
        }
        #expect(applied > 30 && restores > 2)
        #expect(storageB.wholeReads.load(ordering: .relaxed) == readBefore + restores)

        let focus = try a.state(of: onA).tree.focus.description
        _ = try a.run(.putList(node: focus, sections: [ListSection(id: "s", items: [Cell(id: "i1", kind: "row", content: .int(1))])]), on: onA).get()
        let caughtUp = try b.state(of: try b.core.session(onA.id, token: token))
        #expect(caughtUp.lists.values.first?.current.itemCount == 1)
        #expect(storageB.wholeReads.load(ordering: .relaxed) == readBefore + restores + 1)
    }
}

extension SharedStoreTests {
    /// A core that holds a session replays the changes another commits from their notices, as
    /// they arrive, without reading the store: after every round of random changes on A, the
    /// state B holds is the one a core that reads the session whole serves, its stored head
    /// known (B's next change writes no head it need not), and B's own change then applies
    /// without a conflict. A restore's block is not replayed (B catches up on its next use); a
    /// notice without the change (too large for a payload) is passed over alike.
    @Test(arguments: [UInt64(5), 23])
    func aCoreHoldingASessionReplaysTheChangesItsNoticesCarry(seed: UInt64) throws {
        defer { removeDatabase() }
        let storageB = try SharedSQLite(path: path, bus: bus)
        let a = try core(), b = try core(on: storageB)
        let (onA, token) = try a.create()
        let onB = try b.core.session(onA.id, token: token)
        var random = SeededGenerator(state: seed)
        var replayedRounds = 0
        for round in 0..<40 {
            let restoring = round % 10 == 9
            let carrying = round % 10 != 4
            bus.carriesChanges.withLock { $0 = carrying }
            let readsBefore = reads(of: storageB)
            let lastEventBefore = try a.state(of: onA).lastEvent
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                _ = a.run(ReplayDocumentTests.command(for: try a.state(of: onA), app: .tabs, &random), on: onA)
            }
            let version = try a.state(of: onA).version
            var restored = false
            if restoring, version > 2, case .success = a.run(.restore(a.core.restoreTarget(of: onA, version: Int.random(in: 1..<version, using: &random))), on: onA) {
                restored = true
            }
            let held = onB.slot.withLock { $0.state }
            let whole = try core().state(of: try core().core.session(onA.id, token: token))
            #expect(reads(of: storageB) == readsBefore)
            if restored || !carrying {
                #expect(whole.lastEvent == lastEventBefore ? held.lastEvent == whole.lastEvent : held.lastEvent < whole.lastEvent)
                _ = try b.core.session(onA.id, token: token)  // its use catches it up
            } else {
                #expect(ReplayDocumentTests.document(of: held) == ReplayDocumentTests.document(of: whole))
                #expect(held.structuralVersion == whole.structuralVersion)
                #expect(onB.slot.withLock { $0.storedHead } == onA.slot.withLock { $0.storedHead })
                replayedRounds += 1
            }
        }
        #expect(replayedRounds >= 30)
        bus.carriesChanges.withLock { $0 = true }
        // B is current: its change writes without a conflict (which would read), and A replays it in turn.
        let before = reads(of: storageB)
        _ = try b.run(.selectTab("account"), on: onB).get()
        #expect(reads(of: storageB) == before)
        #expect(onA.slot.withLock { $0.state.lastEvent } == onB.slot.withLock { $0.state.lastEvent })
    }

    /// How many times a core read the store's sessions, whole or their tails.
    private func reads(of storage: SharedSQLite) -> Int {
        storage.tailReads.load(ordering: .relaxed) + storage.wholeReads.load(ordering: .relaxed)
    }
}
