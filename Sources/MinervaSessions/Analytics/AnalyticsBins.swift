#if canImport(Glibc)
import Glibc
#endif

/// Durations kept as counts in log-scale bins, 16 per doubling, so medians and percentiles can
/// be added up across hours and processes and still be read within about 2%.
public enum AnalyticsBins {
    /// The bin of a duration in milliseconds: 0 for 0 ms, else 1 + ⌊16·log2(ms)⌋.
    public static func bin(ofMilliseconds milliseconds: Int) -> Int {
        guard milliseconds > 0 else { return 0 }
        return 1 + Int((log2(Double(milliseconds)) * 16).rounded(.down))
    }

    /// The middle of a bin (geometrically), in seconds.
    public static func seconds(ofBin bin: Int) -> Double {
        guard bin > 0 else { return 0 }
        return pow(2, (Double(bin - 1) + 0.5) / 16) / 1000
    }

    /// A quantile of binned durations, in seconds; `nil` without any.
    /// - Parameters:
    ///   - quantile: between 0 and 1 (0.5 for the median).
    ///   - counts: how many durations fell in each bin.
    /// - Complexity: O(b log b) in the number of bins.
    public static func quantile(_ quantile: Double, of counts: [Int: Int]) -> Double? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = max(1, Int((quantile * Double(total)).rounded(.up)))
        var seen = 0
        for (bin, count) in counts.sorted(by: { $0.key < $1.key }) {
            seen += count
            if seen >= rank { return seconds(ofBin: bin) }
        }
        return nil
    }
}
