@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

@Suite struct RandomOperationTests {
    static let screens = ["home", "settings", "profile", "photo", "onboarding", "secret", "nowhere"]
    static let links = ["/users/1", "/users/2/followers", "/photos/3", "/secret", "/broken", "/nowhere"]

    static func params(for screen: String, _ random: inout SeededGenerator) -> [String: JSONValue] {
        switch screen {
        case "profile": ["userId": .int(Int.random(in: 0..<9, using: &random))]
        case "photo": ["photoId": "p"]
        default: [:]
        }
    }

    /// Thousands of random operations (valid and invalid) with the invariants checked after each;
    /// every refusal must leave the tree unchanged, every change must make a non-empty block of
    /// events, and replaying the `added` and `removed` events must give exactly the live nodes.
    @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64], [Layout.stack, .split])
    func randomSequencesKeepTheInvariants(seed: UInt64, layout: Layout) {
        var random = SeededGenerator(state: seed)
        var tree = CoordinatorTree(app: .basic, layout: layout)
        var live = Set(tree.nodes.keys).subtracting([tree.rootID])
        var applied = 0
        for _ in 0..<3000 {
            let before = tree
            // Wire ids (and ones nothing has), resolved as a command's edge resolves them.
            let nodeIDs = tree.nodes.keys.sorted().map(\.description) + ["n999"]
            let navigatorIDs = tree.navigatorOrder.map(\.rawValue) + ["v99"]
            let fromText = Bool.random(using: &random) ? nil : nodeIDs.randomElement(using: &random)
            let screen = Self.screens.randomElement(using: &random)!
            let params = Self.params(for: screen, &random)
            do throws(NavigationError) {
                let from = try fromText.map { text throws(NavigationError) in try tree.resolve(node: text) }
                let events: [NavigationEvent]
                switch Int.random(in: 0..<14, using: &random) {
                case 10: events = try tree.navigate(screen: screen, params: params, from: from).events
                case 11: events = try tree.deepLink(Self.links.randomElement(using: &random)!).events
                case 12:
                    let status = CoordinatorTree.FlowStatus.allCases.randomElement(using: &random)!
                    events = try tree.finish(node: from ?? tree.focus, status: status)
                case 13:
                    try tree.updateFlags(set: [], clear: ["signedIn"])
                    events = []
                case 0, 1, 2: events = try tree.push(screen: screen, params: params, from: from).events
                case 3, 4:
                    events = try tree.present(
                        screen: screen, params: params, from: from, style: ModalStyle.allCases.randomElement(using: &random),
                        embedInNavigation: Bool.random(using: &random)).events
                case 5: events = try tree.dismiss(node: from)
                case 6, 7:
                    let target: CoordinatorTree.PopTarget = [.top, .root, .to(try tree.resolve(node: nodeIDs.randomElement(using: &random)!))].randomElement(using: &random)!
                    let navigator = try (Bool.random(using: &random) ? nil : navigatorIDs.randomElement(using: &random)).map { text throws(NavigationError) in
                        try tree.resolve(navigator: text)
                    }
                    events = try tree.pop(navigator: navigator, target: target)
                default:
                    // New screens and nodes kept from the stack (mostly its own, sometimes any node), in a random order.
                    let navigator = try (Bool.random(using: &random) ? nil : navigatorIDs.randomElement(using: &random)).map { text throws(NavigationError) in
                        try tree.resolve(navigator: text)
                    }
                    let onStack = tree.navigators[navigator ?? tree.nodes[tree.focus]!.navigator!]?.stack ?? []
                    var entries: [StackEntry<String>] = (0..<Int.random(in: 0...2, using: &random)).map { _ in .screen("settings", params: [:]) }
                    entries += onStack.filter { _ in Bool.random(using: &random) }.map { .node($0.description) }
                    if Int.random(in: 0..<8, using: &random) == 0 { entries.append(.node(nodeIDs.randomElement(using: &random)!)) }
                    let resolved = try entries.shuffled(using: &random).map { entry throws(NavigationError) in try entry.resolved(in: tree) }
                    events = try tree.setRoot(navigator: navigator, entries: resolved).events
                }
                applied += 1
                for event in events {
                    if case .removed(let removed) = event {
                        #expect(tree.nodes[removed.node] == nil, "a removed node is still in the tree")
                    }
                }
                let block = tree.changeBlock(since: before, operationEvents: events)
                #expect(block.isEmpty == (tree == before), "an operation changed the tree without an event, or the reverse")
                for event in block {
                    switch event {
                    case .added(let added): #expect(live.insert(added.node).inserted, "\(added.node) added twice")
                    case .removed(let removed): #expect(live.remove(removed.node) != nil, "\(removed.node) removed but never added")
                    default: break
                    }
                }
            } catch {
                #expect(tree == before, "refused operation changed the tree: \(error)")
            }
            tree.checkInvariants()
            #expect(live == Set(tree.nodes.keys).subtracting([tree.rootID]), "replaying added and removed does not give the live nodes")
            if applied % 97 == 0 {
                let restored = try? CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: tree.app)
                #expect(restored == tree, "the snapshot does not restore the tree")
            }
        }
        #expect(applied > 1000)
    }
}
