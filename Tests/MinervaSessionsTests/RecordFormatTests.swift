@testable import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
@testable import MinervaSessions
import TestSupport
import Testing

/// Stored records name their format: this build reads its own and those written before formats
/// were named (format 1), and refuses a later one with an error that says so.
@Suite struct RecordFormatTests {
    /// A later format, with a member this build does not know.
    private static let later = "\"format\":12,\"addedLater\":true"

    @Test func eachRecordReadsBackInTheCurrentFormat() throws {
        let content = try ListContent(sections: [ListSection(id: "a", items: [Cell(id: "1", kind: "user", content: CellContent.null)])])
        #expect(try ListContent(record: content.recordBytes) == content)
        let tree = CoordinatorTree(app: .tabs)
        #expect(try CoordinatorTree(headRecord: tree.headRecordBytes(), app: .tabs).snapshotBytes == tree.snapshotBytes)
        #expect(String(decoding: content.recordBytes, as: UTF8.self).hasPrefix("{\"format\":2,"))
    }

    @Test func formatOneRecordsRead() throws {
        let content = try ListContent(record: Array(#"[{"id":"a","items":[{"id":"1","kind":"user","content":{"name":"Ada"}}]}]"#.utf8))
        #expect(content.sections.map(\.id) == ["a"] && content.itemCount == 1)
        let tree = CoordinatorTree(app: .tabs)
        #expect(try CoordinatorTree(headRecord: tree.snapshotBytes, app: .tabs).snapshotBytes == tree.snapshotBytes)
    }

    @Test func aLaterFormatIsRefused() {
        let records: [(String, () throws -> Void)] = [
            ("event", { _ = try SessionEvent(record: EventRecord(seq: 1, body: Array(#"{\#(Self.later),"version":2,"at":1,"type":"tabSelected","tab":"a"}"#.utf8))) }),
            ("list", { _ = try ListContent(record: Array(#"{\#(Self.later),"sections":[]}"#.utf8)) }),
            ("head", { _ = try CoordinatorTree(headRecord: Array(#"{\#(Self.later),"tree":{}}"#.utf8), app: .tabs) }),
            ("answer", {
                _ = try IdempotencyCache.Entry(
                    record: AnswerRecord(key: "k", storedAt: 0, body: Array(#"{\#(Self.later),"fingerprint":1,"status":200,"headers":[],"body":""}"#.utf8)))
            }),
        ]
        for (kind, read) in records {
            do {
                try read()
                Issue.record("\(kind): a record of a later format was read")
            } catch {
                #expect(error is SnapshotError && "\(error)".contains("record format 12") && "\(error)".contains("later release"), "\(kind): \(error)")
            }
        }
    }
}

/// Records are written in the oldest format that holds them: the release before root flows reads
/// every record of a single-root app, and refuses the others as a later format's.
@Suite struct RecordFormatChoiceTests {
    private static func format(_ bytes: [UInt8]) throws -> Int? {
        try JSONParser.parse(bytes).objectValue?["format"]?.intValue
    }

    @Test func recordsWithoutWhatRootFlowsAddedStayFormat2() throws {
        let plain = SessionEvent(seq: 1, version: 2, at: 0, isFinal: true, change: .navigation(.tabSelected("home")))
        #expect(try Self.format(plain.record.body) == 2)
    }

    /// Root flows' kinds are format 3; presentable state's (and an `added` with a title) format 4;
    /// a display mode's format 8; held links' format 9; an overlay's format 10; an exposure's format 11.
    @Test(arguments: SessionEvent.Kind.allCases)
    func eventsAreWrittenInTheOldestFormatThatHoldsThem(kind: SessionEvent.Kind) throws {
        let event = SessionEvent(seq: 1, version: 2, at: 0, isFinal: true, change: EventRecordTests.sample(of: kind))
        let expected =
            kind == .exposed
            ? 11 : kind == .overlayChanged
            ? 10 : kind == .heldLinksChanged
            ? 9 : kind == .displayModeChanged
            ? 8 : [.uiChanged, .resultConsumed, .added, .presentationChanged, .sizeClassChanged].contains(kind) ? 4 : [.flowChanged, .paramsChanged].contains(kind) ? 3 : 2
        #expect(try Self.format(event.record.body) == expected)
    }

    /// Every head is format 5: a release that would take it for the whole state refuses it.
    @Test func headsAreFormat5AndReadBackWhole() throws {
        var tree = CoordinatorTree(app: .tabs)
        #expect(try Self.format(tree.headRecordBytes()) == 5)
        try tree.setUI(of: NodeID(1), to: ["scrollAnchor": "a"])
        #expect(try CoordinatorTree(headRecord: tree.headRecordBytes(), app: .tabs) == tree)
        let text = #"{"flows": {"a": {"root": {"screen": "one"}}}, "launch": [{"flow": "a"}], "screens": {"one": {}}}"#
        let flows = CoordinatorTree(app: try AppDescription.parse(Array(text.utf8), source: "flows"))
        #expect(try Self.format(flows.headRecordBytes()) == 5)
    }

    /// A head that carries devices' marks is format 7 (a release before would drop them, and apply
    /// a device's change twice) and reads them back with its tree.
    @Test func aHeadWithDevicesIsFormat7AndReadsThemBack() throws {
        let tree = CoordinatorTree(app: .tabs)
        let devices = ["phone": DeviceMark(seq: 3, version: 9), "tablet:2": DeviceMark(seq: 1, version: 4)]
        let bytes = tree.headRecordBytes(devices: devices)
        let head = try CoordinatorTree.head(bytes, app: .tabs)
        #expect(try Self.format(bytes) == 7 && head.format == 7 && head.tree == tree && head.devices == devices)
    }
}
