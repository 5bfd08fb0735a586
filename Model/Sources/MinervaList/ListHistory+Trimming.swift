extension ListHistory {
    /// How many bytes the versions before the current one take (``ListContent/byteCount``).
    /// - Complexity: O(n) in the cells of those versions.
    public var olderByteCount: Int {
        older.reduce(0) { $0 + $1.content.byteCount }
    }

    /// Forgets the oldest version before the current one, so that a diff from it answers
    /// `reload`; the current version and the latest diff stay.
    /// - Returns: whether there was one to forget.
    @discardableResult
    public mutating func forgetOldestVersion() -> Bool {
        guard !older.isEmpty else { return false }
        older.removeFirst()
        return true
    }
}
