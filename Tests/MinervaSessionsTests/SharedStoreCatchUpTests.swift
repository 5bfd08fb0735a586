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
