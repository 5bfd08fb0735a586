import MinervaSessions
import Testing

/// The memory store keeps each session's history within its byte budget: list versions no longer
/// current go first, then the oldest events, then the oldest answers — never a list's current version, nor
/// the events after the head that the state is rebuilt from.
@Suite struct MemoryStoreBudgetTests {
    typealias Records = StoreRecords

    @Test func aSessionsHistoryKeepsWithinItsBudgetOldestFirst() throws {
        // Every event body is 1 byte, every list version 10, every answer 9 ("answer kN").
        let store = MemorySessionStorage(historyBudget: 40)
        var create = Records.creation("s_a")
        if case .session(var write) = create {
            write.newListVersions = [ListRecord(node: "n1", version: 1, body: Array(repeating: 1, count: 10))]
            create = .session(write)
        }
        _ = try store.commit([create])
        _ = try store.commit([
            Records.change("s_a", after: 0, events: 1...10, answers: [Records.answer("k1", at: 1)],
                lists: [ListRecord(node: "n1", version: 2, body: Array(repeating: 2, count: 10))], superseded: [("n1", 10)])
        ])
        // 10 events + 2 list versions + 1 answer = 39 bytes: all kept.
        var stored = try #require(try store.loadSession("s_a", eventTail: 100))
        #expect(stored.events.count == 10 && stored.lists.count == 2 && stored.answers.count == 1)

        _ = try store.commit([Records.change("s_a", after: 10, events: 11...12, answers: [Records.answer("k2", at: 2)])])
        // 50 bytes: the list version no longer current goes (40), then nothing more.
        stored = try #require(try store.loadSession("s_a", eventTail: 100))
        #expect(stored.lists.map(\.version) == [2] && stored.answers.count == 2 && stored.events.count == 12)

        _ = try store.commit([Records.change("s_a", after: 12, events: 13...14, answers: [Records.answer("k3", at: 3)])])
        // 51 bytes: the 11 oldest events go (40); the answers stay.
        stored = try #require(try store.loadSession("s_a", eventTail: 100))
        #expect(stored.answers.map(\.key) == ["k1", "k2", "k3"] && stored.events.map(\.seq) == Array(12...14))

        // 66 bytes: the events before the head go (63), then the answers, oldest first (36).
        _ = try store.commit([Records.change("s_a", after: 14, events: 15...40, writesHead: false)])
        stored = try #require(try store.loadSession("s_a", eventTail: 100))
        #expect(stored.record.lastEvent == 14 && stored.events.map(\.seq) == Array(15...40) && stored.answers.isEmpty)
        // Events after the head stay, whatever they take; the current list version too.
        _ = try store.commit([Records.change("s_a", after: 40, events: 41...60, writesHead: false)])
        stored = try #require(try store.loadSession("s_a", eventTail: 100))
        #expect(stored.events.map(\.seq) == Array(15...60) && stored.lists.map(\.version) == [2])
    }
}
