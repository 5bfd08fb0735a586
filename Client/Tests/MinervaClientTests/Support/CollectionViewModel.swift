import MinervaClient

/// A model of what a UICollectionView shows and of the rules its `performBatchUpdates` enforces,
/// written from UIKit's documentation and the exceptions it raises (there is no UIKit here):
///
/// - Deletes, reloads and move sources index the view before the batch; inserts and move
///   destinations index it after the batch ("Deletes are processed before inserts").
/// - Every index must exist on its side of the batch; no position is named twice on a side
///   ("attempt to delete and reload the same index path", "attempt to perform a delete and a
///   move from the same index path": a reload is a delete and an insert, so an item that the
///   batch moves cannot be reloaded; "attempt to perform an insert and a move to the same
///   index path").
/// - Items are not inserted into or moved into inserted sections, nor deleted, reloaded or
///   moved out of deleted sections: the section's own insert or delete covers them.
/// - "Invalid number of sections" and "invalid number of items in section N": after the batch
///   each count must equal the count before, minus what was deleted or moved out, plus what
///   was inserted or moved in — and equal what the data source now says.
///
/// Items that neither move nor are reloaded keep their cell, and so the content they showed;
/// the ones that stay in a section keep their order and fill the places that inserts and moves
/// left free. Inserted and reloaded items show the data source's content.
struct CollectionViewModel {
    /// What each cell shows: its id, kind and content.
    typealias Cell = ListItem

    /// What the view shows now, section by section.
    private(set) var sections: [[Cell]]

    init(showing sections: [[Cell]]) {
        self.sections = sections
    }

    /// Applies one batch as UIKit would, once the data source holds `dataSource`.
    /// - Throws: ``InvalidUpdate`` where UIKit raises an exception.
    mutating func performBatchUpdates(_ batch: BatchUpdate, dataSource: [[Cell]]) throws(InvalidUpdate) {
        let old = sections
        let sectionMap = try Self.mapSections(batch, oldCount: old.count, newCount: dataSource.count)
        try Self.checkItems(batch, old: old, dataSource: dataSource, sectionMap: sectionMap)

        var result: [[Cell?]] = dataSource.map { Array(repeating: nil, count: $0.count) }
        for section in batch.insertedSections { result[section] = dataSource[section] }
        for position in batch.insertedItems { result[position.section][position.item] = dataSource[position.section][position.item] }
        for move in batch.movedItems { result[move.to.section][move.to.item] = old[move.from.section][move.from.item] }
        let leaving = Set(batch.deletedItems + batch.movedItems.map(\.from))
        let reloaded = Set(batch.reloadedItems)
        for (oldSection, newSection) in sectionMap {
            var free = result[newSection].indices.filter { result[newSection][$0] == nil }.makeIterator()
            for (item, cell) in old[oldSection].enumerated() where !leaving.contains(ListPosition(section: oldSection, item: item)) {
                guard let slot = free.next() else { throw InvalidUpdate("no place left in section \(newSection) for item \(item) of old section \(oldSection)") }
                let isReloaded = reloaded.contains(ListPosition(section: oldSection, item: item))
                result[newSection][slot] = isReloaded ? dataSource[newSection][slot] : cell
            }
        }
        sections = result.map { $0.compactMap(\.self) }
    }

    /// Checks the section operations and maps each surviving old section to its new index.
    private static func mapSections(_ batch: BatchUpdate, oldCount: Int, newCount: Int) throws(InvalidUpdate) -> [Int: Int] {
        let sources = batch.deletedSections + batch.movedSections.map(\.from)
        let destinations = batch.insertedSections + batch.movedSections.map(\.to)
        guard sources.allSatisfy({ (0..<oldCount).contains($0) }) else { throw InvalidUpdate("a deleted or moved section is out of range before the update") }
        guard destinations.allSatisfy({ (0..<newCount).contains($0) }) else { throw InvalidUpdate("an inserted or moved section is out of range after the update") }
        guard Set(sources).count == sources.count else { throw InvalidUpdate("a section is deleted or moved twice") }
        guard Set(destinations).count == destinations.count else { throw InvalidUpdate("a section is inserted or moved to twice") }
        guard oldCount - batch.deletedSections.count + batch.insertedSections.count == newCount else {
            throw InvalidUpdate("invalid number of sections: \(oldCount) before, \(newCount) after")
        }
        var map = Dictionary(uniqueKeysWithValues: batch.movedSections.map { ($0.from, $0.to) })
        var freeNew = (0..<newCount).filter { !destinations.contains($0) }.makeIterator()
        for section in 0..<oldCount where !sources.contains(section) { map[section] = freeNew.next() }
        return map
    }

    /// Checks the item operations against the positions and counts on both sides.
    private static func checkItems(_ batch: BatchUpdate, old: [[Cell]], dataSource: [[Cell]], sectionMap: [Int: Int]) throws(InvalidUpdate) {
        let oldSide = batch.deletedItems + batch.movedItems.map(\.from) + batch.reloadedItems
        let newSide = batch.insertedItems + batch.movedItems.map(\.to)
        for position in oldSide {
            guard old.indices.contains(position.section), old[position.section].indices.contains(position.item) else {
                throw InvalidUpdate("item \(position) does not exist before the update")
            }
            guard !batch.deletedSections.contains(position.section) else { throw InvalidUpdate("item \(position) is in a deleted section") }
        }
        for position in newSide {
            guard dataSource.indices.contains(position.section), dataSource[position.section].indices.contains(position.item) else {
                throw InvalidUpdate("item \(position) does not exist after the update")
            }
            guard !batch.insertedSections.contains(position.section) else { throw InvalidUpdate("item \(position) is in an inserted section") }
        }
        guard Set(oldSide).count == oldSide.count else { throw InvalidUpdate("an item is deleted, moved or reloaded twice (a reload of a moved item, say)") }
        guard Set(newSide).count == newSide.count else { throw InvalidUpdate("an item is inserted or moved to twice") }
        for (oldSection, newSection) in sectionMap {
            let outgoing = batch.deletedItems.filter { $0.section == oldSection }.count + batch.movedItems.filter { $0.from.section == oldSection }.count
            let incoming = batch.insertedItems.filter { $0.section == newSection }.count + batch.movedItems.filter { $0.to.section == newSection }.count
            guard old[oldSection].count - outgoing + incoming == dataSource[newSection].count else {
                throw InvalidUpdate("invalid number of items in section \(newSection): \(old[oldSection].count) before, -\(outgoing) +\(incoming), \(dataSource[newSection].count) in the data source")
            }
        }
    }
}

/// A batch that UIKit would refuse with an exception.
struct InvalidUpdate: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
