extension ListDiff {
    /// Computes the diff from `old` to `new` with the fewest moves.
    ///
    /// Cells are matched by id across the whole list (Heckel's linear pass with a hash map).
    /// Among surviving sections, and among surviving cells that stay in one section, a
    /// longest increasing subsequence of old indices stays put and only the rest move; a
    /// cell that changes section always moves. Cells of deleted or inserted sections are not
    /// listed: a cell leaving for an inserted section is a delete, one arriving from a deleted
    /// section an insert. A cell whose kind or content changed is updated, moved or not.
    /// - Parameters:
    ///   - old: the list at version `from`.
    ///   - new: the list at version `to`.
    ///   - from: the old version number.
    ///   - to: the new version number.
    /// - Complexity: O(n log n) in the number of cells; O(n) when nothing moved.
    public init(from old: ListContent, to new: ListContent, fromVersion from: Int, toVersion to: Int) {
        self.init(from: from, to: to)
        let oldSections = old.sections
        let newSections = new.sections

        // Sections: match by id.
        var oldSectionIndex = [String: Int](minimumCapacity: oldSections.count)
        for (index, section) in oldSections.enumerated() { oldSectionIndex[section.id] = index }
        var oldToNewSection = [Int](repeating: -1, count: oldSections.count)
        var newToOldSection = [Int](repeating: -1, count: newSections.count)
        var survivingOldOrder: [Int] = []
        var survivingNewIndex: [Int] = []
        for (newIndex, section) in newSections.enumerated() {
            if let oldIndex = oldSectionIndex[section.id] {
                oldToNewSection[oldIndex] = newIndex
                newToOldSection[newIndex] = oldIndex
                survivingOldOrder.append(oldIndex)
                survivingNewIndex.append(newIndex)
            } else {
                insertedSections.append(newIndex)
            }
        }
        for (oldIndex, newIndex) in oldToNewSection.enumerated() where newIndex < 0 {
            deletedSections.append(oldIndex)
        }
        let keptSections = longestIncreasingSubsequence(survivingOldOrder)
        for (position, kept) in keptSections.enumerated() where !kept {
            movedSections.append(Move(from: survivingOldOrder[position], to: survivingNewIndex[position]))
        }

        // Cells: index the old ones of surviving sections by id.
        var oldCellIndex = [String: Int](minimumCapacity: old.itemCount)
        var flatStart = [Int](repeating: 0, count: oldSections.count + 1)
        for (sectionIndex, section) in oldSections.enumerated() {
            flatStart[sectionIndex + 1] = flatStart[sectionIndex] + section.items.count
            guard oldToNewSection[sectionIndex] >= 0 else { continue }
            for (itemIndex, cell) in section.items.enumerated() {
                oldCellIndex[cell.id] = flatStart[sectionIndex] + itemIndex
            }
        }
        var matched = [Bool](repeating: false, count: flatStart[oldSections.count])
        var sectionOfFlat = [Int32](repeating: 0, count: flatStart[oldSections.count])
        for sectionIndex in oldSections.indices {
            for flat in flatStart[sectionIndex]..<flatStart[sectionIndex + 1] { sectionOfFlat[flat] = Int32(sectionIndex) }
        }

        var stayingOld: [Int] = []
        var stayingNew: [Int] = []
        for (newSectionIndex, section) in newSections.enumerated() {
            let oldSection = newToOldSection[newSectionIndex]
            guard oldSection >= 0 else { continue }
            stayingOld.removeAll(keepingCapacity: true)
            stayingNew.removeAll(keepingCapacity: true)
            let oldItems = oldSections[oldSection].items
            for (itemIndex, cell) in section.items.enumerated() {
                guard let flat = oldCellIndex[cell.id] else {
                    insertedItems.append(Position(section: newSectionIndex, item: itemIndex))
                    continue
                }
                matched[flat] = true
                let fromSection = Int(sectionOfFlat[flat])
                let fromItem = flat - flatStart[fromSection]
                let previous = fromSection == oldSection ? oldItems[fromItem] : oldSections[fromSection].items[fromItem]
                if previous.differs(from: cell) {
                    updatedItems.append(Position(section: fromSection, item: fromItem))
                }
                if fromSection == oldSection {
                    stayingOld.append(fromItem)
                    stayingNew.append(itemIndex)
                } else {
                    movedItems.append(
                        Move(from: Position(section: fromSection, item: fromItem), to: Position(section: newSectionIndex, item: itemIndex)))
                }
            }
            if !isSorted(stayingOld) {
                let kept = longestIncreasingSubsequence(stayingOld)
                for (position, stays) in kept.enumerated() where !stays {
                    movedItems.append(
                        Move(
                            from: Position(section: oldSection, item: stayingOld[position]),
                            to: Position(section: newSectionIndex, item: stayingNew[position])))
                }
            }
        }
        for sectionIndex in oldSections.indices where oldToNewSection[sectionIndex] >= 0 {
            for flat in flatStart[sectionIndex]..<flatStart[sectionIndex + 1] where !matched[flat] {
                deletedItems.append(Position(section: sectionIndex, item: flat - flatStart[sectionIndex]))
            }
        }
        movedItems.sort { $0.to < $1.to }
        updatedItems.sort()
    }
}

private func isSorted(_ values: [Int]) -> Bool {
    var previous = Int.min
    for value in values {
        if value < previous { return false }
        previous = value
    }
    return true
}
