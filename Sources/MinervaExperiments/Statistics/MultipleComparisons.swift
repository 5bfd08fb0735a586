/// p-values adjusted for looking at several metrics of one experiment at once.
public enum MultipleComparisons {
    /// Holm's step-down adjustment (controls the family-wise error rate under any dependence):
    /// the i-th smallest of m p-values becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎), in the
    /// order given. A p-value that is not a number counts as 1.
    public static func holm(_ pValues: [Double]) -> [Double] {
        let values = pValues.map { $0.isNaN ? 1 : $0 }
        let m = values.count
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in values.indices.sorted(by: { values[$0] < values[$1] }).enumerated() {
            running = max(running, min(1, Double(m - rank) * values[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
