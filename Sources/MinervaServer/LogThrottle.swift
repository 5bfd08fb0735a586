/// Lets one log line per key through per period, and counts what it held back meanwhile, so that
/// a flood from one client address logs once a minute rather than once per connection.
struct LogThrottle<Key: Hashable> {
    /// Seconds between two lines of one key.
    let period: Double
    private var lastLogged: [Key: Double] = [:]
    private var heldBack: [Key: Int] = [:]

    /// Creates a throttle that lets one line per key through every `period` seconds.
    init(period: Double) {
        self.period = period
    }

    /// Whether a line for `key` may be logged now.
    /// - Returns: `nil` to hold it back; else how many lines of the key were held back since the last.
    /// - Complexity: amortized O(1); keys logged more than a period ago with nothing held back
    ///   are forgotten whenever the number of keys reaches a power of two (from 1,024).
    mutating func admit(_ key: Key, now: Double) -> Int? {
        if let last = lastLogged[key], now - last < period {
            heldBack[key, default: 0] += 1
            return nil
        }
        if lastLogged.count >= 1024, lastLogged.count.nonzeroBitCount == 1 {
            // a key with lines held back is kept, so that its next line still tells how many
            lastLogged = lastLogged.filter { now - $0.value < period || heldBack[$0.key] != nil }
        }
        lastLogged[key] = now
        return heldBack.removeValue(forKey: key) ?? 0
    }
}
