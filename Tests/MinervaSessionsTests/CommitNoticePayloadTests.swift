@testable import MinervaPostgres
import MinervaSessions
import Testing

/// Commit notices as `NOTIFY` carries them between instances: what one writes, another reads
/// back whole with the store's key; its own, a malformed one, and one sealed with another key,
/// under another first line or not at all are not heard.
@Suite struct CommitNoticePayloadTests {
    let key = CommitNotice.freshKey()
    let events = [
        EventRecord(seq: 7, body: Array(#"{"type":"added","title":"Café\n"}"#.utf8)),
        EventRecord(seq: 8, body: Array("{}".utf8)),
        EventRecord(seq: 9, body: []),
    ]

    var notice: CommitNotice {
        CommitNotice(session: "s_abc", lastEvent: 9, deleted: false, change: NoticedChange(appVersion: "v1", events: events, head: nil))
    }

    @Test(arguments: [SessionHead(version: 5, lastEvent: 9), nil])
    func aCarriedChangeReadsBackWhole(head: SessionHead?) throws {
        let notice = CommitNotice(
            session: "s_abc", lastEvent: 9, deleted: false, change: NoticedChange(appVersion: "v1", events: events, head: head))
        let payload = notice.payload(from: "me", sealing: key)
        #expect(payload.allSatisfy { $0 < 0x80 } && !String(decoding: payload, as: UTF8.self).contains("added"))  // sealed, ASCII
        let read = try #require(CommitNotice(payload: payload, skipping: "other", opening: key))
        #expect(read.session == "s_abc" && read.lastEvent == 9 && !read.deleted)
        let change = try #require(read.change)
        #expect(change.appVersion == "v1" && change.head == head)
        #expect(change.events.map(\.seq) == [7, 8, 9])
        #expect(change.events.map(\.body) == events.map(\.body))
    }

    @Test func aNoticeSealedWithAnotherKeyOrUnderAnotherLineIsNotHeard() throws {
        #expect(CommitNotice(payload: notice.payload(from: "me", sealing: CommitNotice.freshKey()), skipping: "x", opening: key) == nil)
        // The seal moved under another session's, number's or instance's first line does not open.
        let sealed = String(decoding: notice.payload(from: "me", sealing: key), as: UTF8.self).split(separator: " ")[3]
        for line in ["me s_other 9", "me s_abc 10", "you s_abc 9", "me s_abc -"] {
            #expect(CommitNotice(payload: Array("\(line) \(sealed)".utf8), skipping: "x", opening: key) == nil)
        }
        // Nor does a notice of a release before seals, or anything else unsealed: a deletion
        // anyone could send would end the session's streams.
        for payload in ["me s_abc -", "me s_abc 9", "me s_abc 9 not-base64!"] {
            #expect(CommitNotice(payload: Array(payload.utf8), skipping: "x", opening: key) == nil)
        }
    }

    @Test func aDeletionAndANoticeWithoutItsChangeReadBackSealed() throws {
        let deletion = try #require(
            CommitNotice(payload: CommitNotice(session: "s_abc", lastEvent: 0, deleted: true).payload(from: "me", sealing: key), skipping: "x", opening: key))
        #expect(deletion.deleted && deletion.session == "s_abc" && deletion.change == nil)
        let plain = try #require(
            CommitNotice(payload: CommitNotice(session: "s_abc", lastEvent: 3, deleted: false).payload(from: "me", sealing: key), skipping: "x", opening: key))
        #expect(plain.lastEvent == 3 && !plain.deleted && plain.change == nil)
    }

    @Test func ownAndMalformedNoticesAreNotRead() {
        #expect(CommitNotice(payload: notice.payload(from: "me", sealing: key), skipping: "me", opening: key) == nil)
        let malformed: [(line: String, text: String)] = [
            ("me s_abc 9", "v1 -\n7 x\n"), ("me s_abc 9", "v1 5:\n7 2\n{}"), ("me s_abc 9", "v1 -\n7 -1\n"), ("me s_abc 9", "v1 -\n7 9\n{}"),
            ("me s_abc 9", "v1"), ("me s_abc -", "v1 -"), ("me s_abc 99999999999999999999", ""), ("me  9", ""), ("me s_abc x", ""),
        ]
        for (line, text) in malformed {
            let payload = CommitNotice.sealed(Array(text.utf8), under: Array(line.utf8), with: key)
            #expect(CommitNotice(payload: payload, skipping: "other", opening: key) == nil, "\(line) | \(text)")
        }
        #expect(CommitNotice(payload: [], skipping: "other", opening: key) == nil)
    }

    @Test func aChangeIsCarriedOnlyWhenItFitsUnderPostgreSQLsLimit() {
        let large = [EventRecord(seq: 1, body: [UInt8](repeating: UInt8(ascii: "a"), count: CommitNotice.eventBytesLimit))]
        #expect(!CommitNotice.fits(large))
        #expect(CommitNotice.fits([EventRecord(seq: 1, body: [UInt8](repeating: UInt8(ascii: "a"), count: CommitNotice.eventBytesLimit - 24))]))
        // The largest that fits, with a long session id and app version, stays under 8,000 bytes sealed.
        let largest = CommitNotice(
            session: String(repeating: "s", count: 64), lastEvent: Int.max, deleted: false,
            change: NoticedChange(
                appVersion: String(repeating: "f", count: 64), events: (0..<10).map { EventRecord(seq: Int.max - $0, body: [UInt8](repeating: 1, count: 516)) },
                head: SessionHead(version: Int.max, lastEvent: Int.max)))
        #expect(CommitNotice.fits(largest.change!.events))
        let payload = largest.payload(from: String(repeating: "i", count: 12), sealing: key)
        #expect(payload.count < 8_000)
        #expect(CommitNotice(payload: payload, skipping: "x", opening: key)?.change?.events.count == 10)
    }
}
