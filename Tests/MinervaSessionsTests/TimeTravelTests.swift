@testable import MinervaCoordinator
import MinervaList
import MinervaModel
@testable import MinervaSessions
import Testing
import TestSupport

/// Time travel through the core: every version a session made can be rebuilt from the kept log
/// (from memory, or from the store once memory dropped the events), and a restore gives it back.
@Suite struct TimeTravelTests {
    /// What the state document shows of a state's tree, and of its lists by node.
    static func shown(_ state: SessionState) -> (tree: String, lists: [NodeID: String]) {
        let tree = state.tree
        return (
            "\(state.version) \(tree.nodes.keys.sorted().map { "\(tree.nodes[$0]!)" }) \(tree.navigatorOrder.map { "\(tree.navigators[$0]!)" }) "
                + "\(String(describing: tree.selectedTab)) \(tree.flags.sorted()) \(String(describing: tree.pending))",
            state.lists.mapValues { "\($0.version): \($0.current)" }
        )
    }

    /// Checks a rebuilt state against what was current then: the same tree, and every list as
    /// it was — but for those of nodes whose list was numbered from 1 again since (`restarted`:
    /// the node came back without it and got another), which the store no longer keeps.
    static func check(_ past: SessionState, against seen: (tree: String, lists: [NodeID: String]), restarted: Set<NodeID> = []) {
        let shown = Self.shown(past)
        #expect(shown.tree == seen.tree, "version \(past.version) is rebuilt wrong")
        #expect(shown.lists == seen.lists.filter { !restarted.contains($0.key) || shown.lists[$0.key] != nil }, "lists at version \(past.version)")
    }

    /// By version, the nodes whose list was numbered from 1 again after it.
    static func restarts(in seen: [Int: (tree: String, lists: [NodeID: String])]) -> [Int: Set<NodeID>] {
        let versions = seen.keys.sorted()
        var restartedAfter: [Int: Set<NodeID>] = [:]
        var later: Set<NodeID> = []
        for (index, version) in versions.enumerated().reversed() {
            restartedAfter[version] = later
            guard index > 0 else { break }
            let before = seen[versions[index - 1]]!.lists
            for (node, list) in seen[version]!.lists where list.hasPrefix("1: ") && before[node]?.hasPrefix("1: ") != true { later.insert(node) }
        }
        return restartedAfter
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64], [false, true])
    func everyVersionIsRebuiltAsItWas(seed: UInt64, durable: Bool) throws {
        var random = SeededGenerator(state: seed)
        let (app, screens) = RandomApps.make(&random)
        let storage = durable ? try FaultyStorage() : nil
        let configuration = SessionConfiguration(eventsInMemory: 8, rateLimit: 0)
        let harness = try CoreHarness(app: app, storage: storage, configuration: configuration)
        let (session, token) = try harness.create()
        var seen = [1: Self.shown(try harness.state(of: session))]
        var restores = 0
        for _ in 0..<250 {
            let state = try harness.state(of: session)
            let command: SessionCommand =
                Int.random(in: 0..<8, using: &random) == 0
                ? .restore(harness.core.restoreTarget(of: session, version: Int.random(in: 1...state.version, using: &random)))
                : CorePropertyTests.command(for: state, screens: screens, &random)
            if case .success(let result) = harness.run(command, on: session), !result.events.isEmpty {
                let after = try harness.state(of: session)
                seen[after.version] = Self.shown(after)
                if command.isRestore { restores += 1 }
            }
        }
        #expect(restores > 5)
        #expect(seen.count > 80)
        let restarted = Self.restarts(in: seen)
        for (version, shown) in seen {
            Self.check(try harness.core.pastState(of: session, at: version), against: shown, restarted: restarted[version]!)
        }
        guard let storage else { return }
        // Another core on the same store (a restart) rebuilds them from what the store keeps.
        let other = try CoreHarness(app: app, storage: storage, configuration: configuration)
        let again = try other.core.session(session.id, token: token)
        for (version, shown) in seen {
            Self.check(try other.core.pastState(of: again, at: version), against: shown, restarted: restarted[version]!)
        }
    }

    @Test func aListNumberedAnewAfterItsNodeCameBackIsNotTakenForTheOldOne() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        let cells = { (ids: [String]) in [ListSection(id: "s", items: ids.map { Cell(id: $0, kind: "row", content: .int(1)) })] }
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        let node = try harness.state(of: session).tree.focus
        for ids in [["x"], ["y"], ["a"]] { _ = try harness.run(.putList(node: node.description, sections: cells(ids)), on: session).get() }
        let withA = try harness.state(of: session).version
        // The node leaves and comes back (without a list), and its list is numbered from 1 again.
        _ = try harness.run(.restore(harness.core.restoreTarget(of: session, version: 1)), on: session).get()
        _ = try harness.run(.restore(harness.core.restoreTarget(of: session, version: 2)), on: session).get()
        for ids in [["p"], ["q"], ["b"]] { _ = try harness.run(.putList(node: node.description, sections: cells(ids)), on: session).get() }
        #expect(try harness.state(of: session).lists[node]?.version == 3)

        _ = try harness.run(.restore(harness.core.restoreTarget(of: session, version: withA)), on: session).get()
        let restored = try harness.state(of: session)
        #expect(restored.lists[node]?.current != (try ListContent(sections: cells(["b"]), maximumItems: 100)), "today's list kept as the old one")
    }

    @Test func restoreThenUndoGivesBackTheOriginal() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        let cells = { (ids: [String]) in [ListSection(id: "s", items: ids.map { Cell(id: $0, kind: "row", content: .int(1)) })] }
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        _ = try harness.run(.putList(node: "n2", sections: cells(["a"])), on: session).get()
        _ = try harness.run(.putList(node: "n2", sections: cells([])), on: session).get()
        _ = try harness.run(.push(from: nil, screen: "settings", params: [:]), on: session).get()
        let original = try harness.state(of: session)
        let result = try harness.run(.restore(harness.core.restoreTarget(of: session, version: 3)), on: session).get()
        #expect(result.events.map(\.type) == ["removed", "pendingChanged", "listChanged"], "settings is guarded in the tabs app: its flow goes")
        #expect(result.events.last?.change == .listChanged(node: NodeID(2), list: 3, from: 2))
        let restored = try harness.state(of: session)
        #expect(restored.tree.nodes == (try harness.core.pastState(of: session, at: 3)).tree.nodes)
        #expect(restored.lists[NodeID(2)]?.current.itemCount == 1)
        let undo = try harness.run(.restore(harness.core.restoreTarget(of: session, version: original.version)), on: session).get()
        #expect(undo.events.map(\.type) == ["added", "pendingChanged", "listChanged"])
        let undone = try harness.state(of: session)
        #expect(undone.tree.nodes == original.tree.nodes && undone.tree.navigators == original.tree.navigators)
        #expect(undone.lists[NodeID(2)]?.version == 4 && undone.lists[NodeID(2)]?.current == original.lists[NodeID(2)]?.current)
        #expect(undone.version == original.version + 2)
    }

    @Test func aNodeWhoseListCannotComeBackComesBackWithoutIt() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        _ = try harness.run(.putList(node: "n2", sections: [ListSection(id: "s", items: [])]), on: session).get()
        let result = try harness.run(.restore(harness.core.restoreTarget(of: session, version: 2)), on: session).get()
        #expect(result.events.map(\.type) == ["removed", "added"], "a list cannot go but with its node")
        #expect(try harness.state(of: session).lists.isEmpty)
    }

    @Test func aVersionAheadOrForgottenIsNotFound() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        #expect(throws: SessionError.self) { try harness.core.pastState(of: session, at: 2) }
        let failed = harness.run(.restore(harness.core.restoreTarget(of: session, version: 5)), on: session)
        guard case .failure(let error) = failed else { Issue.record("restored a version ahead"); return }
        #expect(error.category == .notFound)
    }
}
