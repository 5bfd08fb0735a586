import MinervaCoordinator

extension SessionState {
    /// Keeps the older versions of all lists together within `budget` bytes: the oldest version
    /// of the list whose older versions take most goes first, and a diff from a version memory
    /// forgot is read from the store.
    /// - Complexity: O(n) in the cells of the older versions, for each version forgotten.
    mutating func trimListHistory(budget: Int) {
        guard budget < .max else { return }
        var sizes = lists.mapValues(\.olderByteCount)
        var total = sizes.values.reduce(0, +)
        while total > budget, let (node, size) = sizes.max(by: { $0.value < $1.value }), lists[node]?.forgetOldestVersion() == true,
            let smaller = lists[node]?.olderByteCount
        {
            sizes[node] = smaller
            total -= size - smaller
        }
    }
}
