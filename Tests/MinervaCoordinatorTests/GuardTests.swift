@testable import MinervaCoordinator
import MinervaJSON
import Testing

/// A guard holds on every path: push, present, set-root, navigate and deep links show its flow
/// and keep the target pending; the target resumes as the operation it was, or is dropped.
@Suite struct GuardTests {
    var tree = CoordinatorTree(app: .basic)

    /// The flow shown for the guarded target, checked to be the `login` sheet.
    func login() -> NodeID {
        #expect(tree.nodes[tree.focus]?.screen == "login")
        return tree.focus
    }

    @Test mutating func pushShowsTheFlowAndResumesAsAPush() throws {
        let (_, shown) = try checked(&tree) { try $0.push(screen: "secret") }
        #expect(tree.nodes[shown]?.screen == "login" && tree.pending?.guarded?.operation == .push)
        #expect(tree.pending?.guarded?.steps == [AppDescription.Step(screen: "secret", presentation: .push)])
        let flow = login()
        try checked(&tree) { try $0.finish(node: flow, status: .success) }
        #expect(screens(tree, .main) == ["home", "secret"] && tree.pending == nil && tree.flags == ["signedIn"])
        // With the flag, nothing holds it any more.
        try checked(&tree) { try $0.push(screen: "secret") }
        #expect(screens(tree, .main) == ["home", "secret", "secret"])
    }

    @Test mutating func presentShowsTheFlowAndResumesAsAPresent() throws {
        try checked(&tree) { try $0.present(screen: "secret", style: .pageSheet) }
        #expect(tree.pending?.guarded?.operation == .present)
        let flow = login()
        try checked(&tree) { try $0.finish(node: flow, status: .success) }
        let secret = tree.focus
        #expect(tree.nodes[secret]?.screen == "secret" && tree.nodes[secret]?.presentation == Presentation(.present, style: .pageSheet))
    }

    @Test mutating func setRootKeepsTheEntriesBeforeTheGuardedOneAndPushesTheRestLater() throws {
        let (_, placed) = try checked(&tree) { try $0.setRoot(stack: [("settings", [:]), ("secret", [:]), ("profile", ["userId": "1"])]) }
        #expect(placed.count == 1 && screens(tree, .main) == ["settings"])
        #expect(tree.pending?.guarded?.operation == .setRoot && tree.pending?.guarded?.navigator == .main && tree.pending?.guarded?.replacesStack == false)
        let flow = login()
        try checked(&tree) { try $0.finish(node: flow, status: .success) }
        #expect(screens(tree, .main) == ["settings", "secret", "profile"])
    }

    @Test mutating func setRootWhoseFirstEntryIsGuardedReplacesNothingUntilTheFlowSucceeds() throws {
        try checked(&tree) { try $0.push(screen: "profile", params: ["userId": "1"]) }
        let (events, placed) = try checked(&tree) { try $0.setRoot(stack: [("secret", [:]), ("settings", [:])]) }
        #expect(placed.isEmpty && removals(events).isEmpty && screens(tree, .main) == ["home", "profile"])
        #expect(tree.pending?.guarded?.replacesStack == true)
        let flow = login()
        try checked(&tree) { try $0.finish(node: flow, status: .success) }
        #expect(screens(tree, .main) == ["secret", "settings"])
    }

    @Test mutating func aSecondGuardedTargetReplacesThePendingOneWithoutASecondFlow() throws {
        try checked(&tree) { try $0.navigate(screen: "secret") }
        let flow = login()
        let (_, shown) = try checked(&tree) { try $0.push(screen: "secret", from: NodeID(1)) }
        #expect(shown == flow && tree.focus == flow)
        #expect(tree.nodes.values.filter { $0.screen == "login" }.count == 1)
        #expect(tree.pending?.guarded?.operation == .push && tree.pending?.guarded?.guardNode == flow)
    }

    @Test mutating func aFlowThatLeavesAnyOtherWayDropsTheTargetAsCancelled() throws {
        // dismissed
        try checked(&tree) { try $0.navigate(screen: "secret") }
        var flow = login()
        var events = try checked(&tree) { try $0.dismiss() }
        #expect(removals(events) == ["\(flow):dismiss", "\(flow):finished"] && tree.pending == nil)
        guard case .finished(let finished) = events.last else { Issue.record("no finished event"); return }
        #expect(finished.result == ["status": "cancelled", "cause": "dismiss"])
        // reset by a deep link
        try checked(&tree) { try $0.push(screen: "secret") }
        flow = login()
        events = try checked(&tree) { try $0.deepLink("/users/7") }.events
        #expect(removals(events).contains("\(flow):finished") && tree.pending == nil)
        // removed with an ancestor: replaced by set-root of the stack that presented it; its
        // parent leaves too, so only the set-root's own flow root reports
        try checked(&tree) { try $0.present(screen: "secret") }
        flow = login()
        events = try checked(&tree) { try $0.setRoot(navigator: "v0", stack: [("home", [:])]) }.events
        #expect(removals(events).contains("\(flow):ancestorRemoved") && !removals(events).contains("\(flow):finished") && tree.pending == nil)
    }
}
