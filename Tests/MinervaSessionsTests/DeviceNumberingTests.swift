import Foundation
import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSQLite
@testable import MinervaSessions
import TestSupport
import Testing

/// Changes numbered per device: the model's step keeps each device's newest number, refuses a gap
/// and an applied number, makes a version of a numbered no-op; the core answers an applied number
/// as applied for the session's life, across the idempotency window and a restart.
@Suite struct DeviceNumberingTests {
    static let limits = ReplayDocumentTests.limits
    static let at = 1_800_000_000_000

    static func number(_ device: String, _ seq: Int) -> DeviceChange {
        try! DeviceChange(device: device, seq: seq)
    }

    static let push = SessionCommand.push(from: nil, screen: "profile", params: ["userId": "1"])

    @Test func theStepKeepsEachDevicesNewestNumberAndNamesItInTheBlock() throws {
        let state = SessionState(tree: CoordinatorTree(app: .tabs), appVersion: "v1")
        let first = try #require(try state.step(Self.push, numbered: Self.number("phone", 1), limits: Self.limits, at: Self.at))
        #expect(first.block.last?.device == Self.number("phone", 1))
        #expect(first.block.dropLast().allSatisfy { $0.device == nil })
        #expect(first.next.devices == ["phone": DeviceMark(seq: 1, version: 2)])
        #expect(try first.next.applied(Self.number("phone", 1)) == DeviceMark(seq: 1, version: 2))
        #expect(try first.next.applied(Self.number("phone", 2)) == nil)
        #expect(try first.next.applied(Self.number("tablet", 1)) == nil)
        let second = try #require(try first.next.step(Self.push, numbered: Self.number("tablet", 1), limits: Self.limits, at: Self.at))
        #expect(second.next.devices == ["phone": DeviceMark(seq: 1, version: 2), "tablet": DeviceMark(seq: 1, version: 3)])
    }

    @Test func anAppliedNumberAndAGapAreRefusedAndChangeNothing() throws {
        let state = SessionState(tree: CoordinatorTree(app: .tabs), appVersion: "v1")
        let next = try #require(try state.step(Self.push, numbered: Self.number("phone", 1), limits: Self.limits, at: Self.at)).next
        for (seq, code) in [(1, "device_seq_applied"), (3, "device_seq_gap")] {
            #expect {
                _ = try next.step(Self.push, numbered: Self.number("phone", seq), limits: Self.limits, at: Self.at)
            } throws: { error in
                (error as? SessionError)?.code == code && (error as? SessionError)?.category == .conflict
            }
        }
        #expect(throws: SessionError.self) { try state.applied(Self.number("phone", 2)) }
    }

    @Test func aRefusedChangeTakesNoNumber() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        #expect(throws: SessionError.self) {
            try harness.run(.push(from: nil, screen: "nowhere", params: [:]), on: session, numbered: Self.number("phone", 1)).get()
        }
        #expect(try harness.state(of: session).devices.isEmpty)
        let applied = try harness.run(Self.push, on: session, numbered: Self.number("phone", 1)).get()
        #expect(applied.events.last?.device == Self.number("phone", 1))
    }

    @Test func aNumberedNoOpMakesAVersionOfOneUnchangedEvent() throws {
        let state = SessionState(tree: CoordinatorTree(app: .tabs), appVersion: "v1")
        let regular = SessionCommand.sizeClass("regular")
        #expect(try state.step(regular, limits: Self.limits, at: Self.at) == nil)
        let step = try #require(try state.step(regular, numbered: Self.number("phone", 1), limits: Self.limits, at: Self.at))
        #expect(step.block.map(\.kind) == [.unchanged] && step.block[0].isFinal && step.block[0].device == Self.number("phone", 1))
        #expect(step.next.version == 2 && step.next.structuralVersion == 1 && step.next.tree == state.tree)
        #expect(step.next.byteCount == state.byteCount + 64 + 5)
    }

    @Test func theDocumentAndTheReplayCarryTheDevices() throws {
        let app = AppDescription.tabs
        var state = SessionState(tree: CoordinatorTree(app: app), appVersion: "v1")
        var mirrored = try SessionState(document: ReplayDocumentTests.parse(ReplayDocumentTests.document(of: state)), app: app)
        let commands: [(SessionCommand, DeviceChange?)] = [
            (Self.push, Self.number("phone", 1)), (.sizeClass("regular"), Self.number("phone", 2)), (Self.push, nil),
            (Self.push, Self.number("tablet:7", 1)),
        ]
        for (round, (command, numbered)) in commands.enumerated() {
            let step = try #require(try state.step(command, numbered: numbered, limits: Self.limits, at: Self.at + round))
            mirrored.replay(
                try step.block.map { event in
                    var writer = JSONWriter(capacity: 128)
                    event.writeWire(into: &writer)
                    return try SessionEvent(wire: ReplayDocumentTests.parse(writer.bytes), app: app)
                })
            state = step.next
        }
        #expect(state.devices == ["phone": DeviceMark(seq: 2, version: 3), "tablet:7": DeviceMark(seq: 1, version: 5)])
        let document = ReplayDocumentTests.document(of: state)
        #expect(document.contains(#""devices":{"phone":{"seq":2,"version":3},"tablet:7":{"seq":1,"version":5}}"#))
        #expect(ReplayDocumentTests.document(of: mirrored) == document && mirrored.devices == state.devices)
        let reread = try SessionState(document: ReplayDocumentTests.parse(document), app: app)
        #expect(reread.devices == state.devices && reread.byteCount == state.byteCount)
    }

    @Test(arguments: ["", String(repeating: "d", count: 65), "phone 1", "phone/1", "télé"])
    func aDeviceIdOutOfBoundsIsRefused(device: String) {
        #expect(throws: SessionError.self) { try DeviceChange(device: device, seq: 1) }
    }

    @Test(arguments: [0, -1, DeviceChange.maxSeq + 1])
    func aNumberOutOfBoundsIsRefused(seq: Int) {
        #expect(throws: SessionError.self) { try DeviceChange(device: "phone", seq: seq) }
    }

    @Test(arguments: ["phone", "phone/", "/1", "phone/012", "phone/+1", "phone/1/2", "phone/1000000000000000", "phone/ 1", "a b/1"])
    func aChangeNumberThatIsNotDeviceSlashNumberIsRefused(text: String) {
        #expect(throws: SessionError.self) { try DeviceChange(text: text) }
    }

    @Test func aChangeNumberReadsAndWritesAsTheHeaderCarriesIt() throws {
        let change = try DeviceChange(text: "tablet:2/999999999999999")
        #expect(change.device == "tablet:2" && change.seq == DeviceChange.maxSeq && change.text == "tablet:2/999999999999999")
    }

    @Test func analyticsTakeTheDevicesTimeWithinTheServersClockAndTheSession() {
        let now = 1_800_000_000.0
        #expect(SessionCore.analyticsTime(ofDeviceTime: 1_799_999_000_000, now: now, createdAt: now - 3600) == 1_799_999_000_000)
        #expect(SessionCore.analyticsTime(ofDeviceTime: 1_800_000_000_001, now: now, createdAt: now - 3600) == 1_800_000_000_000)
        #expect(SessionCore.analyticsTime(ofDeviceTime: 1_799_990_000_000, now: now, createdAt: now - 3600) == 1_800_000_000_000)
        #expect(SessionCore.analyticsTime(ofDeviceTime: 1_000, now: now, createdAt: nil) == 1_000)
    }

    /// The applied answer: the current version, marked, with the version the change made.
    static func expectApplied(_ result: MutationResult, version: Int, madeVersion: Int?) {
        let headers = Dictionary(result.answer.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        #expect(headers["Minerva-Already-Applied"] == "true" && headers["Minerva-Applied-Version"] == madeVersion.map(String.init))
        #expect(String(decoding: result.answer.body, as: UTF8.self) == String(version) && result.events.isEmpty)
    }

    @Test func anAppliedNumberIsAnsweredAsAppliedPastTheKeyWindowAndAcrossARestart() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-devices-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = AnalyticsRecordingTests.TestClock()
        let configuration = SessionConfiguration(rateLimit: 0, idempotencyLifetime: 60, now: clock.now)
        var harness: CoreHarness? = try CoreHarness(storage: try SQLiteSessionStorage(path: path), configuration: configuration)
        let (session, token) = try harness!.create()
        let id = session.id
        // A tablet's change, then 40 of the phone's: the stored head is written again after 32
        // versions, and then holds the tablet's mark alone (no event after it names the tablet).
        _ = try harness!.run(Self.push, on: session, numbered: Self.number("tablet", 1)).get()
        for seq in 1...40 {
            let command: SessionCommand = seq.isMultiple(of: 2) ? Self.push : .pop(navigator: nil, to: nil, toRoot: false)
            _ = try harness!.run(command, on: session, key: IdempotencyKey(key: "k\(seq)", fingerprint: 1), numbered: Self.number("phone", seq)).get()
        }
        clock.advance(3600)
        Self.expectApplied(try harness!.run(Self.push, on: session, numbered: Self.number("phone", 40)).get(), version: 42, madeVersion: 42)
        Self.expectApplied(try harness!.run(Self.push, on: session, numbered: Self.number("phone", 39)).get(), version: 42, madeVersion: 41)
        harness = nil
        let restarted = try CoreHarness(storage: try SQLiteSessionStorage(path: path), configuration: configuration)
        let again = try restarted.core.session(id, token: token)
        #expect(try restarted.state(of: again).devices == ["phone": DeviceMark(seq: 40, version: 42), "tablet": DeviceMark(seq: 1, version: 2)])
        Self.expectApplied(try restarted.run(Self.push, on: again, numbered: Self.number("phone", 40)).get(), version: 42, madeVersion: 42)
        Self.expectApplied(try restarted.run(Self.push, on: again, numbered: Self.number("tablet", 1)).get(), version: 42, madeVersion: 2)
        #expect(throws: SessionError.self) { try restarted.run(Self.push, on: again, numbered: Self.number("phone", 42)).get() }
        let next = try restarted.run(Self.push, on: again, numbered: Self.number("phone", 41)).get()
        #expect(next.events.last?.device == Self.number("phone", 41) && String(decoding: next.answer.body, as: UTF8.self) == "43")
        #expect(try restarted.run(Self.push, on: again, numbered: Self.number("tablet", 2)).get().events.last?.device == Self.number("tablet", 2))
    }
}
