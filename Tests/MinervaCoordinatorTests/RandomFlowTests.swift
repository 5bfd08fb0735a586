import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Random operations and links on apps of root flows: after every one the model's invariants
/// hold, a refusal changes nothing, and replaying each block on the tree before gives the tree
/// after (nodes, navigators, flow, tab, flags, pending), so a client that follows the change
/// log always holds the live tree.
@Suite struct RandomFlowTests {
    static let flags = ["onboarded", "signedIn", "desk", "premium"]
    static let links = [
        "/tour/1", "/signup", "/workouts/1", "/workouts/2/play", "/workouts/1?mode=edit", "/workouts/2/again", "/me/settings", "/folders/4",
        "https://fit.example.com/workouts/3", "/nowhere",
    ]
    static let screens = ["tour", "signup", "workout", "player", "settings", "paywall", "editor", "folder", "nowhere"]

    static func params(for screen: String, _ random: inout SeededGenerator) -> [String: JSONValue] {
        switch screen {
        case "tour": ["page": .int(Int.random(in: 0..<3, using: &random))]
        case "workout": ["id": .string(String(Int.random(in: 0..<3, using: &random))), "mode": "view"]
        case "player", "folder": ["id": "1"]
        default: [:]
        }
    }

    @Test(arguments: [7, 11, 2026] as [UInt64])
    func randomFlowsKeepTheInvariantsAndReplayToTheLiveTree(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var tree = CoordinatorTree(app: .fit, flags: Set(Self.flags.filter { _ in Bool.random(using: &random) }))
        var applied = 0
        var switches = 0
        for _ in 0..<3000 {
            let before = tree
            let nodeIDs = tree.nodes.keys.map(\.description)
            let node = nodeIDs.randomElement(using: &random)!
            let screen = Self.screens.randomElement(using: &random)!
            do throws(NavigationError) {
                let events: [NavigationEvent]
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1: events = try tree.deepLink(Self.links.randomElement(using: &random)!).events
                case 2:
                    let flag = Self.flags.randomElement(using: &random)!
                    events = Bool.random(using: &random) ? try tree.updateFlags(set: [flag], clear: []) : try tree.updateFlags(set: [], clear: [flag])
                case 3:
                    let status = CoordinatorTree.FlowStatus.allCases.randomElement(using: &random)!
                    events = try tree.finish(node: Bool.random(using: &random) ? tree.focus.description : node, status: status)
                case 4: events = try tree.updateParams(node: node, set: ["mode": Bool.random(using: &random) ? "edit" : "view"], unset: [])
                case 5:
                    try tree.selectTab(["today", "me"].randomElement(using: &random)!)
                    events = []
                case 6: events = try tree.dismiss(node: nil)
                case 7: events = try tree.pop(navigator: nil, target: .top)
                default: events = try tree.navigate(screen: screen, params: Self.params(for: screen, &random), from: nil).events
                }
                applied += 1
                let block = tree.changeBlock(since: before, operationEvents: events)
                #expect(block.isEmpty == (tree == before), "an operation changed the tree without an event, or the reverse")
                if block.contains(where: { if case .flowChanged = $0 { true } else { false } }) { switches += 1 }
                tree.keepResults(of: block, version: applied)
                var replayed = before
                replayed.replay(block, version: applied)
                #expect(replayed.results == tree.results, "replay differs")
                #expect(replayed.nodes == tree.nodes && replayed.navigators == tree.navigators && replayed.flow == tree.flow, "replay differs")
                #expect(replayed.selectedTab == tree.selectedTab && replayed.flags == tree.flags && replayed.pending == tree.pending, "replay differs")
            } catch {
                #expect(tree == before, "refused operation changed the tree: \(error)")
            }
            tree.checkInvariants()
            if applied % 97 == 0 {
                let restored = try? CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: tree.app)
                #expect(restored == tree, "the snapshot does not restore the tree")
            }
        }
        #expect(applied > 1000 && switches > 50)
    }
}
