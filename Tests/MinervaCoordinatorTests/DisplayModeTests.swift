@testable import MinervaCoordinator
import MinervaJSON
import Testing

/// A split view's display mode: which columns show at regular width, as state with its own
/// event; the tree, the stacks and the focus stay as they are.
@Suite struct DisplayModeTests {
    static let desk: AppDescription = {
        let text = """
            {"name": "desk", "flows": {"desk": {"root": {"split": {"columns": 2, "primary": {"screen": "folders"}}}},
                                       "main": {"root": {"screen": "home"}}},
             "launch": [{"if": "desk", "flow": "desk"}, {"flow": "main"}],
             "screens": {"folders": {}, "home": {}, "file": {"params": ["id"]}}}
            """
        return try! AppDescription.parse(Array(text.utf8), source: "desk")
    }()

    @Test func everyModeOfThreeColumnsIsStateWithItsOwnEventAndMovesNoNode() throws {
        var tree = CoordinatorTree(app: SplitViewTests.mail)
        let box = try tree.navigate(screen: "mailbox", params: ["box": "in"], from: NodeID(1)).node
        _ = try tree.navigate(screen: "message", params: ["id": "1"], from: box)
        #expect(tree.displayMode == .automatic)
        for mode in SplitDisplayMode.allCases.reversed() {
            let before = tree
            #expect(try tree.setDisplayMode(mode).isEmpty)
            tree.checkInvariants()
            let block = tree.changeBlock(since: before, operationEvents: [])
            #expect(block == (mode == before.displayMode ? [] : [.displayModeChanged(mode)]))
            #expect(tree.nodes == before.nodes && tree.navigators == before.navigators && tree.focus == before.focus)
            var replayed = before
            replayed.replay(block, version: 2)
            #expect(replayed == tree)
            #expect(try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: SplitViewTests.mail) == tree)
        }
        // The same mode again changes nothing.
        let before = tree
        _ = try tree.setDisplayMode(.automatic)
        #expect(tree.changeBlock(since: before, operationEvents: []).isEmpty)
    }

    @Test func twoColumnsBesideDetailNeedThreeColumnsAndOnlyASplitViewHasAMode() throws {
        var tree = CoordinatorTree(app: Self.desk, flags: ["desk"])
        #expect(tree.columns == [.primary, .detail])
        _ = try tree.setDisplayMode(.oneOverSecondary)
        for mode in SplitDisplayMode.allCases where mode.needsThreeColumns {
            #expect(throws: NavigationError.self) { try tree.setDisplayMode(mode) }
        }
        #expect(tree.displayMode == .oneOverSecondary)
        var stack = CoordinatorTree(app: .basic)
        let error = #expect(throws: NavigationError.self) { try stack.setDisplayMode(.secondaryOnly) }
        #expect(error?.category == .invalid)
        #expect(stack.displayMode == .automatic)
    }

    @Test func aNewFlowStartsAutomaticAndItsReplaySaysNoMoreThanTheSwitch() throws {
        var tree = CoordinatorTree(app: Self.desk, flags: ["desk"])
        _ = try tree.setDisplayMode(.secondaryOnly)
        let before = tree
        let events = try tree.updateFlags(set: [], clear: ["desk"])
        #expect(tree.flow == "main" && tree.displayMode == .automatic)
        let block = tree.changeBlock(since: before, operationEvents: events)
        #expect(!block.contains { if case .displayModeChanged = $0 { true } else { false } })
        var replayed = before
        replayed.replay(block, version: 2)
        #expect(replayed == tree)
        // Back in the split view, the mode is automatic again.
        _ = try tree.updateFlags(set: ["desk"], clear: [])
        #expect(tree.flow == "desk" && tree.displayMode == .automatic)
    }
}
