import MinervaClient
import Testing

/// The server's own diffs of random lists (`PUT …/list` and `GET …/list?since=`), applied to
/// a model of UICollectionView through `batchUpdates`: the view must show the new list, every
/// changed cell reloaded.
@Suite struct ServerDiffBatchUpdatesTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func randomListsThroughTheServerAndTheModel(seed: UInt64) async throws {
        try await withLiveServer(["--max-session-bytes", "1000000", "--max-list-bytes", "100000", "--max-sessions", "1000"]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var generator = SeededGenerator(seed: seed)
            var versions: [[ListSection]] = [[]]
            var twoBatches = 0
            var sectionMoves = 0
            for step in 1...100 {
                let list = RandomLists.list(using: &generator)
                let answer = try await session.putList(RandomLists.input(list), on: "n1")
                try Self.expectBatches(of: answer.diff, turn: versions[step - 1], into: list, step: step)
                twoBatches += answer.diff.batchUpdates.count - 1
                sectionMoves += answer.diff.sections.moved.count
                versions.append(list)
                if step >= 4 {
                    let page = try await session.list(of: "n1", since: step - 3)
                    let diff = try #require(page.diff)
                    try Self.expectBatches(of: diff, turn: versions[step - 3], into: list, step: step)
                    #expect(diff.updatedItemIDs(in: versions[step - 3]) == Self.changedIDs(from: versions[step - 3], to: list))
                }
            }
            // The random lists reach the cases that matter: moved and changed cells, moved sections.
            #expect(twoBatches > 0 && sectionMoves > 0)
        }
    }

    private static func expectBatches(of diff: ListDiff, turn old: [ListSection], into new: [ListSection], step: Int) throws {
        var view = CollectionViewModel(showing: old.map(\.items))
        for batch in diff.batchUpdates {
            try view.performBatchUpdates(batch, dataSource: new.map(\.items))
        }
        #expect(view.sections == new.map(\.items), "step \(step): \(diff)")
    }

    /// The ids of cells in both lists whose content changed, in the old list's order.
    private static func changedIDs(from old: [ListSection], to new: [ListSection]) -> [String] {
        let newCells = Dictionary(uniqueKeysWithValues: new.flatMap(\.items).map { ($0.id, $0) })
        let newSectionIDs = Set(new.map(\.id))
        return old.filter { newSectionIDs.contains($0.id) }.flatMap(\.items).filter { cell in
            guard let now = newCells[cell.id], let section = new.first(where: { $0.items.contains(now) }) else { return false }
            return Set(old.map(\.id)).contains(section.id) && now != cell
        }.map(\.id)
    }
}
