@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Random operations and links on apps of root flows: after every one the model's invariants
/// hold, a refusal changes nothing, and replaying each block on the tree before gives the tree
/// after (nodes, navigators, flow, tab, flags, pending), so a client that follows the change
/// log always holds the live tree.
@Suite struct RandomFlowTests {
    /// An app of root flows and what the random operations draw from it.
    struct Subject: Sendable, CustomStringConvertible {
        let app: AppDescription
        let flags: [String]
        let links: [String]
        let screens: [String]
        let tabs: [String]
        let values: [String: @Sendable (inout SeededGenerator) -> JSONValue]
        var description: String { app.name }

        func params(for screen: String, _ random: inout SeededGenerator) -> [String: JSONValue] {
            var params: [String: JSONValue] = [:]
            for name in app.screens[screen]?.params ?? [] {
                params[name] = values[name].map { $0(&random) } ?? .string(String(Int.random(in: 0..<3, using: &random)))
            }
            return params
        }
    }

    /// Onboarding → sign-in → main tabs (or a split desk), with links into each.
    static let fit = Subject(
        app: .fit, flags: ["onboarded", "signedIn", "desk", "premium"],
        links: [
            "/tour/1", "/signup", "/workouts/1", "/workouts/2/play", "/workouts/1?mode=edit", "/workouts/2/again", "/me/settings",
            "/folders/4", "https://fit.example.com/workouts/3", "/nowhere",
        ],
        screens: ["tour", "signup", "workout", "player", "settings", "paywall", "editor", "folder", "nowhere"], tabs: ["today", "me"],
        values: ["page": { .int(Int.random(in: 0..<3, using: &$0)) }, "mode": { _ in "view" }])

    /// Onboarding → identity → PIN sign-in → four tabs, one of them guarded; a link that applies
    /// during sign-in, links into a later flow, query parameters declared and not.
    static let bank = Subject(
        app: .testApp(named: "bank.json"), flags: ["onboarded", "verified", "signedIn", "investor", "locked"],
        links: ["/forgot-pin", "/accounts/1", "/accounts/2/statement", "/pay/7?amount=5&utm_source=mail", "/pay/8", "/funds/3", "/nowhere"],
        screens: ["account", "statement", "payee", "transfer", "confirmTransfer", "share", "invest", "fund", "forgotPin", "unlock"],
        tabs: ["accounts", "cards", "payments", "invest"], values: [:])

    @Test(arguments: [(fit, 7), (fit, 11), (fit, 2026), (bank, 3), (bank, 2027)] as [(Subject, UInt64)])
    func randomFlowsKeepTheInvariantsAndReplayToTheLiveTree(subject: Subject, seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var tree = CoordinatorTree(app: subject.app, flags: Set(subject.flags.filter { _ in Bool.random(using: &random) }))
        var applied = 0
        var switches = 0
        var heldAtSomePoint = false
        for _ in 0..<3000 {
            let before = tree
            let nodeIDs = tree.nodes.keys.sorted()
            let node = nodeIDs.randomElement(using: &random)!
            let screen = subject.screens.randomElement(using: &random)!
            do throws(NavigationError) {
                var events: [NavigationEvent]
                switch Int.random(in: 0..<13, using: &random) {
                case 0, 1: events = try tree.followLink(subject.links.randomElement(using: &random)!)
                case 2:
                    let flag = subject.flags.randomElement(using: &random)!
                    events = Bool.random(using: &random) ? try tree.updateFlags(set: [flag], clear: []) : try tree.updateFlags(set: [], clear: [flag])
                case 3:
                    let status = CoordinatorTree.FlowStatus.allCases.randomElement(using: &random)!
                    events = try tree.finish(node: Bool.random(using: &random) ? tree.focus : node, status: status)
                case 4: events = try tree.updateParams(node: node, set: ["mode": Bool.random(using: &random) ? "edit" : "view"], unset: [])
                case 5: events = try tree.selectTab(subject.tabs.randomElement(using: &random)!, dismiss: Bool.random(using: &random))
                case 6: events = try tree.dismiss(node: nil, interactive: Bool.random(using: &random))
                case 7: events = try tree.pop(navigator: nil, target: .top)
                case 8: events = try tree.changePresentation(of: node, selected: nil, dismissible: Bool.random(using: &random))
                default: events = try tree.navigate(screen: screen, params: subject.params(for: screen, &random), from: nil).events
                }
                // As every change does: links a screen held apply once it is no longer the focus.
                events += tree.releaseHeldLinks()
                if !tree.heldLinks.isEmpty { heldAtSomePoint = true }
                applied += 1
                let block = tree.changeBlock(since: before, operationEvents: events)
                #expect(block.isEmpty == (tree == before), "an operation changed the tree without an event, or the reverse")
                if block.contains(where: { if case .flowChanged = $0 { true } else { false } }) { switches += 1 }
                tree.keepResults(of: block, version: applied)
                var replayed = before
                // The counters go with the block only when its `added` events do not give them, as the step does.
                replayed.replay(block, version: applied, counters: before.idCounters.advanced(past: block) == tree.idCounters ? nil : tree.idCounters)
                #expect(replayed.idCounters == tree.idCounters, "replay's id counters differ")
                #expect(replayed.nodes == tree.nodes && replayed.navigators == tree.navigators && replayed.flow == tree.flow, "replay differs")
                #expect(replayed.selectedTab == tree.selectedTab && replayed.flags == tree.flags && replayed.pending == tree.pending, "replay differs")
                #expect(replayed.heldLinks == tree.heldLinks, "replay's held links differ")
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
        // The bank's confirm step holds links: some walk reaches it with a link arriving.
        if subject.app.screens.values.contains(where: \.holdsLinks) { #expect(heldAtSomePoint) }
    }
}
