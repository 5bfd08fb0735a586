extension ListDiff {
    /// The diff as the batches a UICollectionView or UITableView accepts, in order: one batch
    /// for the deletes, inserts, moves and the reloads of items that stay, then, when an item
    /// both moved and changed, a second batch that reloads it at its new position (UIKit
    /// refuses a reload of an item that the same batch moves).
    /// - Complexity: O(n log n) in the size of the diff.
    public var batchUpdates: [BatchUpdate] {
        let moves = Dictionary(items.moved.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        let structural = BatchUpdate(
            deletedSections: sections.deleted,
            insertedSections: sections.inserted,
            movedSections: sections.moved,
            deletedItems: items.deleted,
            insertedItems: items.inserted,
            movedItems: items.moved,
            reloadedItems: items.updated.filter { moves[$0] == nil }
        )
        let movedAndChanged = items.updated.compactMap { moves[$0] }.sorted { ($0.section, $0.item) < ($1.section, $1.item) }
        return movedAndChanged.isEmpty ? [structural] : [structural, BatchUpdate(reloadedItems: movedAndChanged)]
    }

    /// The ids of the items that changed, for `NSDiffableDataSourceSnapshot.reconfigureItems`
    /// (a snapshot of the new list's ids takes care of the rest).
    /// - Parameter oldSections: the list at version ``from``, which the diff's updated
    ///   positions index.
    /// - Returns: the ids, in the order of their old positions.
    public func updatedItemIDs(in oldSections: [ListSection]) -> [String] {
        items.updated.map { oldSections[$0.section].items[$0.item].id }
    }
}
