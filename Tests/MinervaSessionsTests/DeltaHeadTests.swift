import MinervaCoordinator
import MinervaJSON
@testable import MinervaSessions
import Testing

/// A head is a snapshot the events after it bring up to date; a head written by a release
/// before deltas (which took the head for the whole state) never lags its events.
@Suite struct DeltaHeadTests {
    @Test func aHeadOfAnEarlierReleaseIsWrittenAgainByTheFirstChange() throws {
        let storage = try FaultyStorage()
        let (id, token): (String, String)
        do {
            let harness = try CoreHarness(storage: storage)
            let (session, made) = try harness.create()
            (id, token) = (session.id, made)
            _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
            // The head as the release before wrote it: format 4, the state at the newest version.
            let state = try harness.state(of: session)
            var old = JSONWriter()
            old.beginObject()
            old.field("format", 4)
            old.key("tree")
            state.tree.writeSnapshot(into: &old)
            old.endObject()
            let record = SessionRecord(
                id: id, tokenHash: [], version: state.version, lastEvent: state.lastEvent, firstEvent: 1, appVersion: state.appVersion,
                state: old.bytes, lastUsed: 0, createdAt: nil)
            #expect(try storage.commit([.session(SessionWrite(record: record, expectedLastEvent: state.lastEvent, writesHead: true))]) == [.committed])
        }
        let restarted = try CoreHarness(storage: storage)
        let session = try restarted.core.session(id, token: token)
        _ = try restarted.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        let stored = try #require(try storage.loadSession(id, eventTail: 0))
        let format = try JSONParser.parse(stored.record.state).objectValue?["format"]?.intValue
        let now = try restarted.state(of: session)
        #expect(format == RecordFormat.deltaHead && stored.record.version == now.version)
        // A head of this release lags again from there.
        _ = try restarted.run(.push(from: nil, screen: "profile", params: ["userId": "2"]), on: session).get()
        #expect(try storage.loadSession(id, eventTail: 0)?.record.version == stored.record.version)
    }
}
