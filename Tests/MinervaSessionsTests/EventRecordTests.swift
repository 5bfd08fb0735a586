import MinervaCoordinator
@testable import MinervaSessions
import Testing

/// Events as the store keeps them read back as they were.
@Suite struct EventRecordTests {
    @Test func aStackChangedEventReadsBackFromItsRecord() throws {
        let event = SessionEvent(
            seq: 7, version: 5, at: 1_700_000_000_000, isFinal: true,
            change: .navigation(.stackChanged(navigator: "v0", stack: [NodeID(3), NodeID(5), NodeID(2)])))
        let read = try SessionEvent(record: event.record)
        #expect(read.type == "stackChanged" && read.seq == 7 && read.version == 5 && read.isFinal)
        guard case .navigation(.stackChanged(let navigator, let stack)) = read.change else {
            Issue.record("read back as \(read.type)")
            return
        }
        #expect(navigator == "v0" && stack == [NodeID(3), NodeID(5), NodeID(2)])
    }
}
