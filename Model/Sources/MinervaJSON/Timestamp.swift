/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-24T01:02:03.456Z`), as events carry them.
public enum Timestamp {
    /// The timestamp of a moment given in milliseconds since 1970.
    /// - Complexity: O(1); no calendar or locale is consulted (the civil-from-days algorithm).
    public static func rfc3339(milliseconds: Int) -> String {
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millisecondOfDay) = dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let seconds = millisecondOfDay / 1000
        // The years of 0000...9999 in one pass over 24 bytes: every state and event carries
        // timestamps, and interpolating padded strings cost thousands of instructions each.
        guard (0...9999).contains(year) else {
            return "\(year < 0 ? "-" : "")\(padded(abs(year), 4))-\(padded(month, 2))-\(padded(dayOfMonth, 2))T\(padded(seconds / 3600, 2)):\(padded(seconds / 60 % 60, 2)):"
                + "\(padded(seconds % 60, 2)).\(padded(millisecondOfDay % 1000, 3))Z"
        }
        return String(unsafeUninitializedCapacity: 24) { bytes in
            func put(_ value: Int, _ width: Int, at end: Int) {
                var value = value
                for index in stride(from: end - 1, through: end - width, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 4)
            bytes[4] = UInt8(ascii: "-")
            put(month, 2, at: 7)
            bytes[7] = UInt8(ascii: "-")
            put(dayOfMonth, 2, at: 10)
            bytes[10] = UInt8(ascii: "T")
            put(seconds / 3600, 2, at: 13)
            bytes[13] = UInt8(ascii: ":")
            put(seconds / 60 % 60, 2, at: 16)
            bytes[16] = UInt8(ascii: ":")
            put(seconds % 60, 2, at: 19)
            bytes[19] = UInt8(ascii: ".")
            put(millisecondOfDay % 1000, 3, at: 23)
            bytes[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
