/// A whole list: sections of cell models, with ids checked for uniqueness.
public struct ListContent: Sendable {
    /// The sections, in order.
    public let sections: [ListSection]
    /// The number of cells in all sections.
    public let itemCount: Int
    /// Each cell's position in the flattened list (all sections in order), by id: built while
    /// checking ids, so that the diff to this content that a `PUT` computes right after hashes
    /// each old id once and builds no map.
    ///
    /// Empty once the content is archived (see ``archived``), which ``ListHistory`` does to every
    /// version it keeps, the current one included: the map is about 40 bytes per cell (850 bytes
    /// of a 20-cell list, 15% of a 5-node session with it), more than the cells' own content,
    /// and only a diff from an older version to the current one (`GET …/list?since=` before the
    /// previous version) needs it again. That diff builds it: about 540 more instructions per
    /// cell at 10k cells (1,495 against 956), still linear. The `PUT`'s diff costs the same.
    let positions: [String: Int]

    /// The empty list.
    public static let empty = ListContent(sections: [], itemCount: 0, positions: [:])

    /// Checks ids and wraps the sections.
    /// - Parameters:
    ///   - sections: the sections in order.
    ///   - maximumItems: the most cells allowed in all sections together.
    /// - Throws: ``ListError`` for an empty or duplicate id, or too many items.
    /// - Complexity: O(n) in the number of cells.
    public init(sections: [ListSection], maximumItems: Int = .max) throws(ListError) {
        let count = sections.reduce(0) { $0 + $1.items.count }
        guard count <= maximumItems else { throw .tooManyItems(count, limit: maximumItems) }
        var sectionIDs = Set<String>(minimumCapacity: sections.count)
        var positions = [String: Int](minimumCapacity: count)
        var flat = 0
        for (sectionIndex, section) in sections.enumerated() {
            guard !section.id.isEmpty else { throw .emptySectionID(at: sectionIndex) }
            guard sectionIDs.insert(section.id).inserted else { throw .duplicateSection(section.id) }
            for (itemIndex, item) in section.items.enumerated() {
                guard !item.id.isEmpty else { throw .emptyItemID(section: sectionIndex, item: itemIndex) }
                guard positions.updateValue(flat, forKey: item.id) == nil else { throw .duplicateItem(item.id) }
                flat += 1
            }
        }
        self.init(sections: sections, itemCount: count, positions: positions)
    }

    private init(sections: [ListSection], itemCount: Int, positions: [String: Int]) {
        self.sections = sections
        self.itemCount = itemCount
        self.positions = positions
    }

    /// The same content without its id map, for versions kept in a history.
    var archived: ListContent {
        ListContent(sections: sections, itemCount: itemCount, positions: [:])
    }
}

extension ListContent: Hashable {
    public static func == (lhs: ListContent, rhs: ListContent) -> Bool {
        lhs.sections == rhs.sections
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sections)
    }
}
