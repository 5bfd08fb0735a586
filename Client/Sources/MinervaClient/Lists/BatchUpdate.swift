public import Foundation

/// One `performBatchUpdates` of a UICollectionView (or UITableView): what it deletes, inserts,
/// moves and reloads, with UIKit's indexing.
///
/// Deletes, reloads and move sources index the list before the batch; inserts and move
/// destinations index the list after it. Set the data source to the new list before the
/// first batch, then:
///
/// ```swift
/// for batch in diff.batchUpdates {
///     collectionView.performBatchUpdates {
///         collectionView.deleteSections(IndexSet(batch.deletedSections))
///         collectionView.insertSections(IndexSet(batch.insertedSections))
///         batch.movedSections.forEach { collectionView.moveSection($0.from, toSection: $0.to) }
///         collectionView.deleteItems(at: batch.deletedItems.map(\.indexPath))
///         collectionView.insertItems(at: batch.insertedItems.map(\.indexPath))
///         batch.movedItems.forEach { collectionView.moveItem(at: $0.from.indexPath, to: $0.to.indexPath) }
///         collectionView.reloadItems(at: batch.reloadedItems.map(\.indexPath))
///     }
/// }
/// ```
public struct BatchUpdate: Hashable, Sendable {
    /// A move from a position before the batch to one after it.
    public typealias Move = ListMove

    /// Sections to delete, by their index before the batch.
    public var deletedSections: [Int] = []
    /// Sections to insert, by their index after the batch.
    public var insertedSections: [Int] = []
    /// Sections to move.
    public var movedSections: [Move<Int>] = []
    /// Items to delete, by their position before the batch.
    public var deletedItems: [ListPosition] = []
    /// Items to insert, by their position after the batch.
    public var insertedItems: [ListPosition] = []
    /// Items to move.
    public var movedItems: [Move<ListPosition>] = []
    /// Items to reload, by their position before the batch; never an item this batch moves.
    public var reloadedItems: [ListPosition] = []

    /// Creates a batch.
    public init(
        deletedSections: [Int] = [], insertedSections: [Int] = [], movedSections: [Move<Int>] = [],
        deletedItems: [ListPosition] = [], insertedItems: [ListPosition] = [], movedItems: [Move<ListPosition>] = [],
        reloadedItems: [ListPosition] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.movedSections = movedSections
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.movedItems = movedItems
        self.reloadedItems = reloadedItems
    }
}

extension ListPosition {
    /// The position as an `IndexPath`, as UIKit's `IndexPath(item:section:)` makes it.
    public var indexPath: IndexPath { IndexPath(indexes: [section, item]) }
}
