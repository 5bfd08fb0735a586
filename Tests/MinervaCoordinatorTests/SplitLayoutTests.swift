@testable import MinervaCoordinator
import Testing

@Suite struct SplitLayoutTests {
    var tree = CoordinatorTree(app: .basic, layout: .split)

    @Test func startsWithPrimaryAndAnEmptyDetail() {
        tree.checkInvariants()
        #expect(tree.navigatorOrder == [.primary, .detail])
        #expect(tree.navigators[.detail]?.stack == [])
        #expect(tree.focus == NodeID(1))
    }

    @Test mutating func pushFromPrimaryReplacesDetail() throws {
        let (none, first) = try checked(&tree) { try $0.push(screen: "profile", params: ["userId": "1"]) }
        #expect(none.isEmpty)
        #expect(tree.nodes[first]?.presentation == Presentation(.detail))
        #expect(tree.nodes[first]?.parent == NodeID(1))
        #expect(tree.focus == first)
        try checked(&tree) { try $0.push(screen: "followers", params: ["userId": "1"]) }   // on detail
        #expect(tree.navigators[.detail]?.stack.count == 2)
        let (events, second) = try checked(&tree) { try $0.push(screen: "settings", from: NodeID(1)) }
        #expect(removals(events) == ["n3:setRoot", "n2:setRoot"])
        #expect(tree.navigators[.detail]?.stack == [second])
        // Popping the detail's root empties it ("back to the sidebar"); then there is nothing to pop.
        try checked(&tree) { try $0.pop(navigator: "detail") }
        #expect(tree.navigators[.detail]?.stack == [] && tree.focus == NodeID(1))
        expectRefused(&tree, .conflict) { try $0.pop(navigator: "detail") }
    }
}
