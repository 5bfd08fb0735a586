@testable import MinervaPostgres
import MinervaSessions
import Testing

/// Commit notices as `NOTIFY` carries them between instances: what one writes, another reads
/// back whole; its own, a malformed one and one of an older release are what they are.
@Suite struct CommitNoticePayloadTests {
    let events = [
        EventRecord(seq: 7, body: Array(#"{"type":"added","title":"Café\n"}"#.utf8)),
        EventRecord(seq: 8, body: Array("{}".utf8)),
        EventRecord(seq: 9, body: []),
    ]

    @Test(arguments: [SessionHead(version: 5, lastEvent: 9), nil])
    func aCarriedChangeReadsBackWhole(head: SessionHead?) throws {
        let notice = CommitNotice(
            session: "s_abc", lastEvent: 9, deleted: false, change: NoticedChange(appVersion: "v1", events: events, head: head))
        let read = try #require(CommitNotice(payload: notice.payload(from: "me"), skipping: "other"))
        #expect(read.session == "s_abc" && read.lastEvent == 9 && !read.deleted)
        let change = try #require(read.change)
        #expect(change.appVersion == "v1" && change.head == head)
        #expect(change.events.map(\.seq) == [7, 8, 9])
        #expect(change.events.map(\.body) == events.map(\.body))
    }

    @Test func aDeletionAndAPlainNoticeReadBackWithoutAChange() throws {
        let deletion = try #require(CommitNotice(payload: Array("me s_abc -".utf8), skipping: "other"))
        #expect(deletion.deleted && deletion.change == nil)
        let plain = try #require(CommitNotice(payload: CommitNotice(session: "s_abc", lastEvent: 3, deleted: false).payload(from: "me"), skipping: "x"))
        #expect(plain.lastEvent == 3 && !plain.deleted && plain.change == nil)
    }

    @Test func ownAndMalformedNoticesAreNotRead() {
        let notice = CommitNotice(session: "s_abc", lastEvent: 9, deleted: false, change: NoticedChange(appVersion: "v1", events: events, head: nil))
        #expect(CommitNotice(payload: notice.payload(from: "me"), skipping: "me") == nil)
        var cut = notice.payload(from: "me")
        cut.removeLast(3)
        for payload in [cut, Array("me s_abc".utf8), Array("me s_abc x".utf8), Array("me s_abc 9 v1 5:".utf8), Array("me s_abc 9 v1 -\n7 x\n".utf8), Array("me s_abc 99999999999999999999".utf8), Array("me s_abc 9 v1 -\n7 -1\n".utf8), []] {
            #expect(CommitNotice(payload: payload, skipping: "other") == nil)
        }
    }

    @Test func aChangeIsCarriedOnlyWhenItFitsUnderPostgreSQLsLimit() {
        let large = [EventRecord(seq: 1, body: [UInt8](repeating: UInt8(ascii: "a"), count: CommitNotice.eventBytesLimit))]
        #expect(!CommitNotice.fits(large))
        #expect(CommitNotice.fits([EventRecord(seq: 1, body: [UInt8](repeating: UInt8(ascii: "a"), count: CommitNotice.eventBytesLimit - 24))]))
        // The largest that fits, with a long session id and app version, stays under 8,000 bytes.
        let largest = CommitNotice(
            session: String(repeating: "s", count: 64), lastEvent: Int.max, deleted: false,
            change: NoticedChange(
                appVersion: String(repeating: "f", count: 64), events: (0..<10).map { EventRecord(seq: Int.max - $0, body: [UInt8](repeating: 1, count: 716)) },
                head: SessionHead(version: Int.max, lastEvent: Int.max)))
        #expect(CommitNotice.fits(largest.change!.events))
        #expect(largest.payload(from: String(repeating: "i", count: 12)).count < 8_000)
    }
}
