import MinervaJSON
import Testing
import TestSupport

/// The byte count of a value is the length of what the writer writes, without writing it.
@Suite struct JSONByteCountTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func countsWhatTheWriterWrites(seed: UInt64) {
        var generator = ValueGenerator(random: SeededGenerator(state: seed))
        for _ in 0..<500 {
            let value = generator.value()
            var writer = JSONWriter()
            writer.value(value)
            #expect(value.encodedByteCount == writer.bytes.count, "\(value)")
        }
    }
}
