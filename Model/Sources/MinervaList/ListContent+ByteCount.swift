extension ListContent {
    /// What the list size limits count, in bytes: each cell's id, kind and content and a fixed
    /// share for its place in the list (``cellShare``), each section's id and share
    /// (``sectionShare``): about what the list takes in memory.
    /// - Complexity: O(n) in the number of cells.
    public var byteCount: Int {
        var total = 0
        for section in sections {
            total += Self.sectionShare + section.id.utf8.count
            for cell in section.items {
                total += Self.cellShare + cell.id.utf8.count + cell.kind.utf8.count + cell.content.json.count
            }
        }
        return total
    }

    /// The bytes a cell counts beyond its id, kind and content.
    public static let cellShare = 64
    /// The bytes a section counts beyond its id.
    public static let sectionShare = 32
}
