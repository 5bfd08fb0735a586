import MinervaClient
import Testing

/// `ListDiff.batchUpdates` against the model of UICollectionView's batch rules, with diffs
/// written by hand (the server's own diffs are in ServerDiffBatchUpdatesTests).
@Suite struct BatchUpdatesTests {
    typealias Cell = CollectionViewModel.Cell

    private static func cell(_ id: String, _ content: String) -> Cell {
        Cell(id: id, kind: "user", content: .init(stringLiteral: content))
    }

    private static func position(_ section: Int, _ item: Int) -> ListPosition {
        ListPosition(section: section, item: item)
    }

    private static func diff(
        deleted: [ListPosition] = [], inserted: [ListPosition] = [], moved: [(ListPosition, ListPosition)] = [],
        updated: [ListPosition] = []
    ) -> ListDiff {
        ListDiff(
            from: 1, to: 2, sections: .init(deleted: [], inserted: [], moved: [], updated: []),
            items: .init(deleted: deleted, inserted: inserted, moved: moved.map { .init(from: $0.0, to: $0.1) }, updated: updated))
    }

    @Test func theReadmeExampleIsOneBatch() throws {
        // Linus moves to the top, Grace goes, Barbara comes, Ada changes (and only shifts).
        let old = [[Self.cell("u1", "Ada"), Self.cell("u2", "Grace"), Self.cell("u3", "Linus")]]
        let new = [[Self.cell("u3", "Linus"), Self.cell("u1", "Ada, verified"), Self.cell("u4", "Barbara")]]
        let diff = Self.diff(
            deleted: [Self.position(0, 1)], inserted: [Self.position(0, 2)], moved: [(Self.position(0, 2), Self.position(0, 0))],
            updated: [Self.position(0, 0)])
        #expect(diff.batchUpdates.count == 1)
        #expect(diff.batchUpdates[0].reloadedItems == [Self.position(0, 0)])
        var view = CollectionViewModel(showing: old)
        for batch in diff.batchUpdates { try view.performBatchUpdates(batch, dataSource: new) }
        #expect(view.sections == new)
    }

    @Test func anItemThatMovesAndChangesIsMovedThenReloaded() throws {
        let old = [[Self.cell("a", "1"), Self.cell("b", "1"), Self.cell("c", "1")]]
        let new = [[Self.cell("c", "2"), Self.cell("a", "1"), Self.cell("b", "1")]]
        let diff = Self.diff(moved: [(Self.position(0, 2), Self.position(0, 0))], updated: [Self.position(0, 2)])
        let batches = diff.batchUpdates
        #expect(batches.count == 2)
        #expect(batches[0].movedItems == [.init(from: Self.position(0, 2), to: Self.position(0, 0))])
        #expect(batches[0].reloadedItems.isEmpty)
        #expect(batches[1] == BatchUpdate(reloadedItems: [Self.position(0, 0)]))
        var view = CollectionViewModel(showing: old)
        for batch in batches { try view.performBatchUpdates(batch, dataSource: new) }
        #expect(view.sections == new)
    }

    @Test func updatedItemIDsNameTheOldPositions() {
        let old = [ListSection(id: "s", items: [Self.cell("a", "1"), Self.cell("b", "1")])]
        #expect(Self.diff(updated: [Self.position(0, 1)]).updatedItemIDs(in: old) == ["b"])
    }

    // The model refuses what UIKit refuses, so that the tests above can fail.

    @Test func theModelRefusesAReloadOfAMovedItem() {
        let old = [[Self.cell("a", "1"), Self.cell("b", "1")]]
        let new = [[Self.cell("b", "1"), Self.cell("a", "2")]]
        var view = CollectionViewModel(showing: old)
        let batch = BatchUpdate(movedItems: [.init(from: Self.position(0, 0), to: Self.position(0, 1))], reloadedItems: [Self.position(0, 0)])
        #expect(throws: InvalidUpdate.self) { try view.performBatchUpdates(batch, dataSource: new) }
    }

    @Test func theModelRefusesWrongItemCounts() {
        var view = CollectionViewModel(showing: [[Self.cell("a", "1")]])
        let batch = BatchUpdate(insertedItems: [Self.position(0, 1)])
        #expect(throws: InvalidUpdate.self) { try view.performBatchUpdates(batch, dataSource: [[Self.cell("a", "1")]]) }
    }

    @Test func theModelRefusesAnItemInsertedIntoAnInsertedSection() {
        var view = CollectionViewModel(showing: [])
        let batch = BatchUpdate(insertedSections: [0], insertedItems: [Self.position(0, 0)])
        #expect(throws: InvalidUpdate.self) { try view.performBatchUpdates(batch, dataSource: [[Self.cell("a", "1")]]) }
    }

    @Test func theModelRefusesAWrongSectionCount() {
        var view = CollectionViewModel(showing: [[], []])
        #expect(throws: InvalidUpdate.self) { try view.performBatchUpdates(BatchUpdate(deletedSections: [0]), dataSource: [[], []]) }
    }

    @Test func theModelShowsStaleContentWithoutAReload() throws {
        var view = CollectionViewModel(showing: [[Self.cell("a", "1")]])
        try view.performBatchUpdates(BatchUpdate(), dataSource: [[Self.cell("a", "2")]])
        #expect(view.sections == [[Self.cell("a", "1")]])
    }
}
