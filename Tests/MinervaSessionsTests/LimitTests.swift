@testable import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
@testable import MinervaSessions
import Testing

/// What bounds a session's size: refusals that name the limit, and histories kept within budget.
@Suite struct LimitTests {
    static func refusal(_ outcome: Result<MutationResult, SessionError>) -> SessionError? {
        if case .failure(let error) = outcome { error } else { nil }
    }

    static func list(items: Int, bytes: Int) -> [ListSection] {
        [ListSection(id: "s", items: (0..<items).map { Cell(id: "i\($0)", kind: "row", content: .string(String(repeating: "x", count: bytes))) })]
    }

    /// The defaults take a menu of 1,000 dishes of 100 bytes, and twice its session (its list's
    /// previous version kept) in a session at most.
    @Test func theDefaultLimitsHoldAThousandCellMenu() throws {
        let harness = try CoreHarness(configuration: SessionConfiguration(rateLimit: 0))
        let (session, _) = try harness.create()
        let menu = Self.list(items: 1000, bytes: 98)  // a string of 98 characters is 100 bytes of JSON
        #expect(try ListContent(sections: menu).byteCount < SessionConfiguration.standard.limits.maxListBytes)
        _ = try harness.run(.putList(node: "n1", sections: menu), on: session).get()
        let soldOut = ListPatch(upsert: [ListPatch.Upsert(cell: Cell(id: "i412", kind: "row", content: .string("sold out")), placement: nil)])
        _ = try harness.run(.patchList(node: "n1", patch: soldOut), on: session).get()
    }

    /// The default sessions at their limits fit the default memory budget on every store; more
    /// do not, and the refusal names the flags and the most sessions that fit.
    @Test func theWorstCaseOfEverySessionAtItsLimitsIsCheckedAgainstTheBudget() {
        let standard = SessionConfiguration.standard
        let budget = 8 << 30
        #expect(standard.worstSessionBytes(inMemoryStore: false) == 576 << 10 && standard.worstSessionBytes(inMemoryStore: true) == 832 << 10)
        #expect(standard.memoryProblem(budget: budget, inMemoryStore: false) == nil && standard.memoryProblem(budget: budget, inMemoryStore: true) == nil)
        let many = SessionConfiguration(maxSessions: 100_000)
        #expect(
            many.memoryProblem(budget: budget, inMemoryStore: true)
                == "100000 sessions may take up to 79.3 GiB at worst (832 KiB each: 2.25 times --max-session-bytes, and --memory-history-bytes in the memory store), "
                + "more than --memory-budget 8.0 GiB: lower --max-sessions to at most 10082, or --max-session-bytes or --memory-history-bytes, or raise --memory-budget")
        #expect(SessionConfiguration(maxSessions: .max).worstBytes(inMemoryStore: false) == .max)
        #expect(SessionConfiguration(maxSessionBytes: .max / 2).worstSessionBytes(inMemoryStore: false) == .max)
    }

    @Test func paramsListsAndSessionsOverTheirLimitsAreRefusedNamingTheLimit() throws {
        let harness = try CoreHarness(
            configuration: SessionConfiguration(maxListBytes: 3000, maxParamBytes: 100, maxSessionBytes: 5000, rateLimit: 0))
        let (session, _) = try harness.create()
        let big: [String: JSONValue] = ["userId": .string(String(repeating: "7", count: 200))]
        let params = Self.refusal(harness.run(.push(from: nil, screen: "profile", params: big), on: session))
        #expect(params?.category == .invalid && params?.description.contains("--max-param-bytes") == true)
        let list = Self.refusal(harness.run(.putList(node: "n1", sections: Self.list(items: 10, bytes: 300)), on: session))
        #expect(list?.category == .invalid && list?.description.contains("--max-list-bytes") == true)
        // Two lists that each fit, but not together with the nodes.
        _ = try harness.run(.putList(node: "n1", sections: Self.list(items: 10, bytes: 150)), on: session).get()
        let whole = Self.refusal(harness.run(.putList(node: "n2", sections: Self.list(items: 10, bytes: 150)), on: session))
        #expect(whole?.category == .conflict && whole?.description.contains("--max-session-bytes") == true)
        #expect(try harness.state(of: session).lists[NodeID(2)] == nil)
    }

    @Test(arguments: [false, true])
    func theInMemoryHistoryKeepsWithinTheBudgetAndTheStoreHoldsTheRest(durable: Bool) throws {
        let budget = 8000
        let configuration = SessionConfiguration(eventsInMemory: 1000, maxSessionBytes: budget, rateLimit: 0)
        // The memory store holds what a session's in-memory history forgot, as a durable one does.
        let harness = try durable ? CoreHarness(storage: try FaultyStorage(), configuration: configuration) : CoreHarness(configuration: configuration)
        let (session, _) = try harness.create()
        for round in 0..<40 {
            _ = try harness.run(.putList(node: "n1", sections: Self.list(items: 3, bytes: 100 + round)), on: session).get()
            _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": .string(String(round))]), on: session).get()
            _ = try harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        }
        let state = try harness.state(of: session)
        let log = harness.log(of: session)
        #expect(log.bytes <= budget / 2 && log.bytes == log.events.reduce(0) { $0 + $1.approximateByteCount })
        #expect(log.events.count < state.lastEvent)
        let history = try #require(state.lists[NodeID(1)])
        #expect(history.olderByteCount <= budget / 2)
        #expect(try history.diff(since: 10) == .reload)
        // What memory forgot, the store still has: the whole log, and a diff from version 10.
        let page = try harness.core.eventPage(of: session, after: 0)
        #expect(page.events.map(\.seq) == Array(1...state.lastEvent) && !page.truncated)
        guard case .diff(let diff) = try harness.core.listAnswer(of: session, in: state, node: NodeID(1), since: 10) else {
            Issue.record("no diff from version 10")
            return
        }
        #expect(diff.from == 10 && diff.to == history.version)
        #expect(try harness.core.listAnswer(of: session, in: state, node: NodeID(1), since: 1) == .reload)
    }
}
