extension ListContent {
    /// How many bytes the list's ids, kinds and contents take: what the list size limit counts.
    /// - Complexity: O(n) in the number of cells.
    public var byteCount: Int {
        var total = 0
        for section in sections {
            total += section.id.utf8.count
            for cell in section.items {
                total += cell.id.utf8.count + cell.kind.utf8.count + cell.content.json.count
            }
        }
        return total
    }
}
