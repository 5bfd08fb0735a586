/// A whole list: sections of cell models, with ids checked for uniqueness.
public struct ListContent: Hashable, Sendable {
    /// The sections, in order.
    public let sections: [ListSection]
    /// The number of cells in all sections.
    public let itemCount: Int

    /// The empty list.
    public static let empty = ListContent(validated: [])

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
        var itemIDs = Set<String>(minimumCapacity: count)
        for (sectionIndex, section) in sections.enumerated() {
            guard !section.id.isEmpty else { throw .emptySectionID(at: sectionIndex) }
            guard sectionIDs.insert(section.id).inserted else { throw .duplicateSection(section.id) }
            for (itemIndex, item) in section.items.enumerated() {
                guard !item.id.isEmpty else { throw .emptyItemID(section: sectionIndex, item: itemIndex) }
                guard itemIDs.insert(item.id).inserted else { throw .duplicateItem(item.id) }
            }
        }
        self.sections = sections
        itemCount = count
    }

    private init(validated sections: [ListSection]) {
        self.sections = sections
        itemCount = sections.reduce(0) { $0 + $1.items.count }
    }
}
