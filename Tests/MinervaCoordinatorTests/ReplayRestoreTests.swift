@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Time travel in the model: blocks of events replayed on the tree they started from give the
/// tree the operation made, and a restore gives back an earlier tree.
@Suite struct ReplayRestoreTests {
    /// What the state document shows of a tree (the counters aside).
    static func shown(_ tree: CoordinatorTree) -> [String] {
        [
            tree.nodes.keys.sorted().map { id in "\(tree.nodes[id]!)" }.joined(separator: "|"),
            tree.navigatorOrder.map { "\(tree.navigators[$0]!)" }.joined(separator: "|"),
            "\(String(describing: tree.selectedTab)) \(tree.flags.sorted()) \(String(describing: tree.pending)) \(tree.focus)",
        ]
    }

    /// One random operation (valid or not) as the random operation tests run them.
    static func randomOperation(on tree: inout CoordinatorTree, _ random: inout SeededGenerator) throws(NavigationError) -> [NavigationEvent] {
        // Wire ids (one no node has), resolved as a command's edge resolves them.
        let nodeIDs = tree.nodes.keys.sorted().map(\.description) + ["n999"]
        let navigatorIDs = tree.navigatorOrder
        let from = try (Bool.random(using: &random) ? nil : nodeIDs.randomElement(using: &random)).map { text throws(NavigationError) in
            try tree.resolve(node: text)
        }
        let screen = RandomOperationTests.screens.randomElement(using: &random)!
        let params = RandomOperationTests.params(for: screen, &random)
        switch Int.random(in: 0..<15, using: &random) {
        case 10: return try tree.navigate(screen: screen, params: params, from: from).events
        case 11: return try tree.deepLink(RandomOperationTests.links.randomElement(using: &random)!).events
        case 12:
            return try tree.finish(node: from ?? tree.focus, status: CoordinatorTree.FlowStatus.allCases.randomElement(using: &random)!)
        case 13:
            try tree.updateFlags(set: Bool.random(using: &random) ? ["signedIn"] : [], clear: Bool.random(using: &random) ? ["signedIn"] : [])
            return []
        case 14:
            try tree.selectTab("nope")
            return []
        case 0, 1, 2: return try tree.push(screen: screen, params: params, from: from).events
        case 3, 4:
            return try tree.present(
                screen: screen, params: params, from: from, style: ModalStyle.allCases.randomElement(using: &random),
                embedInNavigation: Bool.random(using: &random)).events
        case 5: return try tree.dismiss(node: from)
        case 6, 7:
            let target: CoordinatorTree.PopTarget = [.top, .root, .to(try tree.resolve(node: nodeIDs.randomElement(using: &random)!))].randomElement(using: &random)!
            return try tree.pop(navigator: Bool.random(using: &random) ? nil : navigatorIDs.randomElement(using: &random), target: target)
        default:
            let navigator = Bool.random(using: &random) ? nil : navigatorIDs.randomElement(using: &random)
            let onStack = tree.navigators[navigator ?? tree.nodes[tree.focus]!.navigator!]?.stack ?? []
            var entries: [StackEntry<NodeID>] = (0..<Int.random(in: 0...2, using: &random)).map { _ in .screen("settings", params: [:]) }
            entries += onStack.filter { _ in Bool.random(using: &random) }.map { .node($0) }
            if Int.random(in: 0..<4, using: &random) == 0 { entries.append(.screen("secret", params: [:])) }
            return try tree.setRoot(navigator: navigator, entries: entries.shuffled(using: &random)).events
        }
    }

    @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64], [Layout.stack, .split])
    func replayingEachBlockGivesTheTreeTheOperationMade(seed: UInt64, layout: Layout) {
        var random = SeededGenerator(state: seed)
        var tree = CoordinatorTree(app: .basic, layout: layout)
        var replayed = tree
        for step in 0..<3000 {
            let before = tree
            guard let events = try? Self.randomOperation(on: &tree, &random) else { continue }
            replayed.replay(tree.changeBlock(since: before, operationEvents: events), version: step)
            #expect(Self.shown(replayed) == Self.shown(tree), "step \(step): the replayed block gives another tree")
            if Self.shown(replayed) != Self.shown(tree) { return }
            replayed.checkInvariants()
        }
    }

    @Test(arguments: [7, 8, 9, 100] as [UInt64], [Layout.stack, .split])
    func restoringAnEarlierTreeGivesItBackWithTodaysFlags(seed: UInt64, layout: Layout) {
        var random = SeededGenerator(state: seed)
        var tree = CoordinatorTree(app: .basic, layout: layout)
        var history = [tree]
        var restores = 0
        for _ in 0..<1500 {
            if Int.random(in: 0..<10, using: &random) == 0 {
                let target = history.randomElement(using: &random)!
                let before = tree
                do throws(NavigationError) {
                    let events = try tree.restore(target)
                    restores += 1
                    tree.checkInvariants()
                    #expect(tree.flags == before.flags)
                    var expected = target
                    try expected.updateFlags(set: Array(before.flags), clear: Array(target.flags.subtracting(before.flags)))
                    #expect(Self.shown(tree) == Self.shown(expected), "the restored tree is not the earlier one")
                    // The events describe the change: removed ones are gone, added ones are there.
                    for event in events {
                        if case .removed(let removed) = event { #expect(removed.reason == .restore) }
                        if case .added(let added) = event { #expect(tree.nodes[added.node] != nil) }
                    }
                    var next = tree
                    if let made = try? next.push(screen: "settings").node {
                        #expect(history.allSatisfy { $0.nodes[made] == nil }, "a restore lets a new node reuse an id")
                    }
                } catch {
                    #expect(error.category == .conflict)
                    #expect(Self.shown(tree) == Self.shown(before), "a refused restore changed the tree")
                }
            } else if (try? Self.randomOperation(on: &tree, &random)) == nil {
                continue
            }
            history.append(tree)
        }
        #expect(restores > 50)
    }

    @Test func aRestoresBlockAddsSiblingsInTheirOrderThen() throws {
        var tree = CoordinatorTree(app: .basic)
        let photo = try tree.present(screen: "photo", params: ["photoId": "1"], from: NodeID(1)).node
        let settings = try tree.push(screen: "settings", from: NodeID(1)).node
        let target = tree
        #expect(tree.nodes[NodeID(1)]!.children == [photo, settings])
        _ = try tree.dismiss(node: photo)
        _ = try tree.pop(target: .top)
        let before = tree
        let events = try tree.restore(target)
        // Screen order would add the pushed screen first; the presented one came first then.
        var replayed = before
        replayed.replay(tree.changeBlock(since: before, operationEvents: events), version: 2)
        #expect(Self.shown(replayed) == Self.shown(target))
        #expect(Self.shown(tree) == Self.shown(target))
    }

    @Test func restoringTheCurrentTreeChangesNothing() throws {
        var tree = CoordinatorTree(app: .basic)
        try tree.push(screen: "settings")
        let before = tree
        #expect(try tree.restore(before).isEmpty)
        #expect(tree == before)
    }

    @Test func aGuardedScreenDoesNotComeBackWithoutItsFlag() throws {
        var tree = CoordinatorTree(app: .basic)
        try tree.updateFlags(set: ["signedIn"], clear: [])
        try tree.push(screen: "secret")
        let signedIn = tree
        try tree.pop(target: .top)
        try tree.updateFlags(set: [], clear: ["signedIn"])
        let before = tree
        #expect(throws: NavigationError.self) { try tree.restore(signedIn) }
        #expect(tree == before)
        try tree.updateFlags(set: ["signedIn"], clear: [])
        let events = try tree.restore(signedIn)
        #expect(events.count == 1)
        #expect(tree.nodes.values.contains { $0.screen == "secret" })
    }
}
