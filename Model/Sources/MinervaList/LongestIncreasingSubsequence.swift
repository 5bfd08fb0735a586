/// Marks a longest strictly increasing subsequence of `values`.
///
/// Patience sorting with predecessor links: the elements it marks are the ones a diff
/// keeps in place; every other one must move.
/// - Parameter values: distinct integers (old indices, in their new order).
/// - Returns: for each position, whether it belongs to the chosen subsequence.
/// - Complexity: O(n log n).
func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    var kept = [Bool](repeating: false, count: values.count)
    guard !values.isEmpty else { return kept }
    // tails[k]: position of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    tails.reserveCapacity(values.count)
    var predecessor = [Int](repeating: -1, count: values.count)
    for (position, value) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { predecessor[position] = tails[low - 1] }
        if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var position = tails[tails.count - 1]
    while position >= 0 {
        kept[position] = true
        position = predecessor[position]
    }
    return kept
}
