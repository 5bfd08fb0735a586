import Foundation
import MinervaJSON
import TestSupport
import Testing

/// RFC 3339 timestamps against Foundation's formatter (a differential test of the hand-written
/// formatting), and read back by the parser.
@Suite struct TimestampTests {
    @Test func timestampsAreFoundationsAndReadBack() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var random = SeededGenerator(state: 44)
        // 1970 itself, before it, the turn of centuries and leap days, then years 1583…9999 at
        // random (Foundation's calendar is Julian before the Gregorian reform of 1582; RFC 3339's,
        // and this one's, Gregorian throughout).
        var moments = [0, -1, 951_782_400_000, 4_107_542_399_999, 1_764_460_800_123, -12_212_553_600_000, 253_402_300_799_999]
        for _ in 0..<20_000 { moments.append(Int.random(in: -12_212_553_600_000...253_402_300_799_999, using: &random)) }
        for milliseconds in moments {
            let text = Timestamp.rfc3339(milliseconds: milliseconds)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(text == formatter.string(from: date), "\(milliseconds)")
            #expect(Timestamp.milliseconds(rfc3339: text) == milliseconds, "\(text)")
        }
    }
}
