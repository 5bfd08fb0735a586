import MinervaJSON
import MinervaList

/// Applies a diff to the old list the way UICollectionView's batch updates do, written
/// independently of the diff code: deletes and move sources index the old list, inserts and
/// move destinations the new one; the remaining slots keep the survivors in their old order.
/// Inserted and updated cells take their content from `new` (the diff carries positions,
/// the client fetches what to show); everything else keeps the old content.
func apply(_ diff: ListDiff, to old: [ListSection], new: [ListSection]) -> [ListSection]? {
    let newSectionCount = old.count - diff.deletedSections.count + diff.insertedSections.count
    guard newSectionCount == new.count else { return nil }
    var slots = [Int?](repeating: nil, count: newSectionCount)  // old section index per new slot, nil for inserted
    var slotTaken = [Bool](repeating: false, count: newSectionCount)
    for index in diff.insertedSections { slotTaken[index] = true }
    let movedFrom = Set(diff.movedSections.map(\.from))
    for move in diff.movedSections {
        guard !slotTaken[move.to] else { return nil }
        slots[move.to] = move.from
        slotTaken[move.to] = true
    }
    let deleted = Set(diff.deletedSections)
    var remaining = old.indices.filter { !deleted.contains($0) && !movedFrom.contains($0) }.makeIterator()
    for slot in 0..<newSectionCount where !slotTaken[slot] {
        guard let next = remaining.next() else { return nil }
        slots[slot] = next
    }
    guard remaining.next() == nil else { return nil }

    let updated = Set(diff.updatedItems)
    let deletedItems = Set(diff.deletedItems)
    let movedItemSources = Set(diff.movedItems.map(\.from))
    var result: [ListSection] = []
    for (newSection, oldSection) in slots.enumerated() {
        guard let oldSection else {
            result.append(new[newSection])
            continue
        }
        let inserts = diff.insertedItems.filter { $0.section == newSection }.map(\.item)
        let movesIn = diff.movedItems.filter { $0.to.section == newSection }
        let staying = old[oldSection].items.indices.filter {
            let position = ListDiff.Position(section: oldSection, item: $0)
            return !deletedItems.contains(position) && !movedItemSources.contains(position)
        }
        let count = staying.count + inserts.count + movesIn.count
        guard count == new[newSection].items.count else { return nil }
        var cells = [Cell?](repeating: nil, count: count)
        for index in inserts {
            guard cells[index] == nil else { return nil }
            cells[index] = new[newSection].items[index]
        }
        func carried(_ position: ListDiff.Position, to index: Int) -> Cell {
            updated.contains(position) ? new[newSection].items[index] : old[position.section].items[position.item]
        }
        for move in movesIn {
            guard cells[move.to.item] == nil else { return nil }
            cells[move.to.item] = carried(move.from, to: move.to.item)
        }
        var stayers = staying.makeIterator()
        for index in 0..<count where cells[index] == nil {
            let next = stayers.next()!
            cells[index] = carried(ListDiff.Position(section: oldSection, item: next), to: index)
        }
        result.append(ListSection(id: old[oldSection].id, items: cells.map { $0! }))
    }
    return result
}

/// The fewest moves any correct diff can report, by quadratic dynamic programming
/// (a different algorithm from the diff's patience sorting).
func minimalMoves(from old: [ListSection], to new: [ListSection]) -> (sections: Int, items: Int) {
    func lisLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
    let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
    let survivors = new.compactMap { oldSectionIndex[$0.id] }
    let sectionMoves = survivors.count - lisLength(survivors)
    var oldPlace: [String: (section: String, index: Int)] = [:]
    for section in old { for (index, cell) in section.items.enumerated() { oldPlace[cell.id] = (section.id, index) } }
    var itemMoves = 0
    for section in new where oldSectionIndex[section.id] != nil {
        var staying: [Int] = []
        for cell in section.items {
            guard let place = oldPlace[cell.id], oldSectionIndex[place.section] != nil, new.contains(where: { $0.id == place.section }) else { continue }
            if place.section == section.id { staying.append(place.index) } else { itemMoves += 1 }
        }
        itemMoves += staying.count - lisLength(staying)
    }
    return (sectionMoves, itemMoves)
}
