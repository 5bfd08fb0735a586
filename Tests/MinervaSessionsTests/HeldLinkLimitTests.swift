import MinervaCoordinator
import MinervaModel
import Testing

/// Links a screen held apply in the change that takes the focus off it, unless they would take
/// the session over its limits: then they are dropped and the change still applies.
@Suite struct HeldLinkLimitTests {
    static let app = try! AppDescription.parse(
        Array(
            #"""
            {"name": "shop", "root": {"screen": "home"},
             "screens": {"home": {}, "a": {}, "b": {}, "c": {}, "confirm": {"holdsLinks": true}},
             "routes": [{"path": "/abc", "steps": [{"screen": "a"}, {"screen": "b"}, {"screen": "c"}]}]}
            """#.utf8), source: "shop.json")

    /// On the confirm step (three nodes: the app, home, confirm), holding a link that shows three screens.
    static func holding() throws -> SessionState {
        var tree = CoordinatorTree(app: app)
        _ = try tree.push(screen: "confirm", params: [:], from: nil)
        _ = try tree.followLink("/abc")
        #expect(tree.heldLinks == ["/abc"] && tree.nodes.count == 3)
        return SessionState(tree: tree, appVersion: "v1")
    }

    static func limits(maxNodes: Int) -> StepLimits {
        var limits = ReplayDocumentTests.limits
        limits.maxNodes = maxNodes
        return limits
    }

    @Test func theBackThatLeavesTheStepAppliesTheLinkWithinTheLimits() throws {
        let step = try #require(try Self.holding().step(.pop(navigator: nil, to: nil, toRoot: false), limits: Self.limits(maxNodes: 5), at: 1))
        #expect(step.next.tree.heldLinks.isEmpty && step.next.tree[node: step.next.tree.focus].screen == "c")
        #expect(step.block.map(\.type) == ["removed", "added", "added", "added", "heldLinksChanged"])
    }

    @Test func aLinkThatWouldPassTheLimitsIsDroppedAndTheBackStillApplies() throws {
        // The link would leave five nodes where the session holds three, over a limit of four.
        let step = try #require(try Self.holding().step(.pop(navigator: nil, to: nil, toRoot: false), limits: Self.limits(maxNodes: 4), at: 1))
        #expect(step.next.tree.heldLinks.isEmpty && step.next.tree[node: step.next.tree.focus].screen == "home")
        #expect(step.block.map(\.type) == ["removed", "heldLinksChanged"])
    }
}
