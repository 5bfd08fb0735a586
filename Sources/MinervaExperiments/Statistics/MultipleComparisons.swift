/// p-values adjusted for looking at several metrics of one experiment at once.
public enum MultipleComparisons {
    /// Holm's step-down adjustment (controls the family-wise error rate under any dependence):
    /// the i-th smallest of m p-values becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎), in the
    /// order given.
    public static func holm(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in pValues.indices.sorted(by: { pValues[$0] < pValues[$1] }).enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
