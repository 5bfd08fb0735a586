import MinervaCoordinator

extension SessionState {
    /// Keeps the in-memory log within bounds: at most `keep` events and half the byte budget
    /// (never fewer than `atLeast`, the newest block). A store still holds the events dropped here.
    mutating func trimEvents(keeping keep: Int, atLeast: Int, budget: Int) {
        while events.count > atLeast, events.count > keep || eventBytes > budget / 2 {
            eventBytes -= events.removeFirst().approximateByteCount
        }
    }

    /// Keeps the older versions of all lists together within half the byte budget: the oldest
    /// version of the list whose older versions take most goes first, and a diff from a
    /// forgotten version answers `reload`.
    /// - Complexity: O(n) in the cells of the older versions, for each version forgotten.
    mutating func trimListHistory(budget: Int) {
        guard budget < .max else { return }
        var sizes = lists.mapValues(\.olderByteCount)
        var total = sizes.values.reduce(0, +)
        while total > budget / 2, let (node, size) = sizes.max(by: { $0.value < $1.value }), lists[node]!.forgetOldestVersion() {
            let smaller = lists[node]!.olderByteCount
            sizes[node] = smaller
            total -= size - smaller
        }
    }
}
