@testable import MinervaCoordinator
import MinervaJSON
import Testing

/// `set-root` entries that keep nodes already on the stack, as UIKit's `setViewControllers`
/// keeps the controllers that stay.
@Suite struct SetRootKeepTests {
    var tree = CoordinatorTree(app: .basic)

    init() throws {
        try checked(&tree) { try $0.push(screen: "profile", params: ["userId": "1"]) }   // n2
        try checked(&tree) { try $0.push(screen: "followers", params: ["userId": "1"]) } // n3
        try checked(&tree) { try $0.push(screen: "settings") }                         // n4
    }

    @Test mutating func keptNodesKeepTheirIdsAndParamsInTheNewOrderAndOnlyTheOthersLeave() throws {
        let before = tree
        let (events, ids) = try checked(&tree) { try $0.setRoot(entries: [.node(NodeID(3)), .screen("home", params: [:]), .node(NodeID(2))]) }
        #expect(ids.map(\.description) == ["n3", "n5", "n2"])
        #expect(removals(events.filter { if case .removed = $0 { true } else { false } }) == ["n4:setRoot", "n1:setRoot"])
        #expect(tree.nodes[NodeID(3)]?.params == ["userId": "1"] && tree.nodes[NodeID(3)]?.presentation == Presentation(.root))
        #expect(tree.nodes[NodeID(2)]?.presentation == Presentation(.push) && tree.nodes[NodeID(2)]?.parent == tree.rootID)
        let block = tree.changeBlock(since: before, operationEvents: events)
        #expect(block.last == .stackChanged(navigator: .main, stack: [NodeID(3), NodeID(5), NodeID(2)]))
    }

    @Test mutating func aKeptNodeKeepsItsSubtree() throws {
        try checked(&tree) { try $0.present(screen: "onboarding", from: NodeID(3)) }         // n5, presented by v0 from n3
        let (events, _) = try checked(&tree) { try $0.setRoot(navigator: "v0", entries: [.node(NodeID(1)), .node(NodeID(3))]) }
        #expect(tree.nodes[NodeID(5)]?.parent == NodeID(3) && tree.focus == NodeID(5))
        #expect(removals(events.filter { if case .removed = $0 { true } else { false } }) == ["n4:setRoot", "n2:setRoot"])
    }

    @Test mutating func aSetStackIsSiblingsAndSettingItAgainChangesNothing() throws {
        let whole: [StackEntry] = [.node(NodeID(1)), .node(NodeID(2)), .node(NodeID(3)), .node(NodeID(4))]
        var before = tree
        var (events, _) = try checked(&tree) { try $0.setRoot(entries: whole) }
        // Pushed nodes were children of the node below; a set stack's nodes are the owner's children.
        #expect(tree.nodes[NodeID(4)]?.parent == tree.rootID)
        #expect(tree.changeBlock(since: before, operationEvents: events) == [.stackChanged(navigator: .main, stack: (1...4).map { NodeID($0) })])
        before = tree
        (events, _) = try checked(&tree) { try $0.setRoot(entries: whole) }
        #expect(tree == before && tree.changeBlock(since: before, operationEvents: events).isEmpty)
    }

    @Test mutating func keptEntriesAreChecked() {
        expectRefused(&tree, .notFound) { _ = try StackEntry<String>.node("n9").resolved(in: $0) }
        expectRefused(&tree, .invalid) { try $0.setRoot(entries: [.node(NodeID(2)), .node(NodeID(2))]) }
        expectRefused(&tree, .conflict) { try $0.setRoot(navigator: "v0", entries: [.node(NodeID(0))]) }
        _ = try? checked(&tree) { try $0.present(screen: "onboarding") }
        expectRefused(&tree, .conflict) { try $0.setRoot(entries: [.node(NodeID(2))]) }              // n2 is not on the sheet's stack
        expectRefused(&tree, .invalid) { try $0.setRoot(navigator: "v0", entries: [.screen("secret", params: [:]), .node(NodeID(2))]) }
    }
}
