extension ListDiff {
    /// Computes the diff from `old` to `new` with the fewest moves.
    ///
    /// Cells are matched by id across the whole list (Heckel's linear pass with a hash map: the
    /// new content's, built when its ids were checked).
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

        // Cells: find each old cell of a surviving section in the new content's id map (built
        // when the new content was checked), so each old id is hashed once and no map is built.
        // A cell whose new section is inserted is left unmatched: it counts as deleted.
        // A content kept in a history has no map (see `ListContent.positions`): build one, unless
        // no old cell will be looked up.
        let needsMap = new.positions.isEmpty && new.itemCount > 0 && survivingOldOrder.contains { !oldSections[$0].items.isEmpty }
        let newPositions = needsMap ? Self.positions(of: new) : new.positions
        var newStart = [Int](repeating: 0, count: newSections.count + 1)
        for (sectionIndex, section) in newSections.enumerated() {
            newStart[sectionIndex + 1] = newStart[sectionIndex] + section.items.count
        }
        var newSectionOfFlat = [Int32](repeating: -1, count: newStart[newSections.count])
        for sectionIndex in newSections.indices where newToOldSection[sectionIndex] >= 0 {
            for flat in newStart[sectionIndex]..<newStart[sectionIndex + 1] { newSectionOfFlat[flat] = Int32(sectionIndex) }
        }
        // For each new cell, the old (section, item) it came from, or -1.
        var oldSectionOfNew = [Int32](repeating: -1, count: newStart[newSections.count])
        var oldItemOfNew = [Int32](repeating: -1, count: newStart[newSections.count])
        // Most cells keep their order, so first guess that a cell follows the previous match in
        // the new list; only a wrong guess costs a hash lookup.
        var guess = 0
        let newCount = newStart[newSections.count]
        for (sectionIndex, section) in oldSections.enumerated() where oldToNewSection[sectionIndex] >= 0 {
            for (itemIndex, cell) in section.items.enumerated() {
                var found: Int?
                if guess < newCount, newSectionOfFlat[guess] >= 0 {
                    let guessSection = Int(newSectionOfFlat[guess])
                    if newSections[guessSection].items[guess - newStart[guessSection]].id == cell.id { found = guess }
                }
                if found == nil { found = newPositions[cell.id] }
                if let flat = found, newSectionOfFlat[flat] >= 0 {
                    guess = flat + 1
                    oldSectionOfNew[flat] = Int32(sectionIndex)
                    oldItemOfNew[flat] = Int32(itemIndex)
                } else {
                    deletedItems.append(Position(section: sectionIndex, item: itemIndex))
                }
            }
        }

        var stayingOld: [Int] = []
        var stayingNew: [Int] = []
        for (newSectionIndex, section) in newSections.enumerated() {
            let oldSection = newToOldSection[newSectionIndex]
            guard oldSection >= 0 else { continue }
            stayingOld.removeAll(keepingCapacity: true)
            stayingNew.removeAll(keepingCapacity: true)
            let base = newStart[newSectionIndex]
            for (itemIndex, cell) in section.items.enumerated() {
                let fromSection = Int(oldSectionOfNew[base + itemIndex])
                guard fromSection >= 0 else {
                    insertedItems.append(Position(section: newSectionIndex, item: itemIndex))
                    continue
                }
                let fromItem = Int(oldItemOfNew[base + itemIndex])
                if oldSections[fromSection].items[fromItem].differs(from: cell) {
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
        movedItems.sort { $0.to < $1.to }
        updatedItems.sort()
    }

    /// The id map of a content that was archived without one.
    private static func positions(of content: ListContent) -> [String: Int] {
        var positions = [String: Int](minimumCapacity: content.itemCount)
        var flat = 0
        for section in content.sections {
            for cell in section.items {
                positions[cell.id] = flat
                flat += 1
            }
        }
        return positions
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
