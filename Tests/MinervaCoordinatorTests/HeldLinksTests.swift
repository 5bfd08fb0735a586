@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// A screen that holds links: links wait while it is the focus and apply, in order, when it leaves.
@Suite struct HeldLinksTests {
    static let bank = AppDescription.testApp(named: "bank.json")

    /// A signed-in bank session on the transfer's confirm step.
    func onTheConfirmStep() throws -> CoordinatorTree {
        var tree = CoordinatorTree(app: Self.bank, flags: ["onboarded", "verified", "signedIn"])
        _ = try tree.present(screen: "transfer", params: ["to": "savings"], from: nil, style: nil, embedInNavigation: nil)
        _ = try tree.push(screen: "confirmTransfer", params: [:], from: nil)
        #expect(tree.focusHoldsLinks)
        return tree
    }

    @Test func linksWaitOnTheConfirmStepAndApplyInOrderWhenItLeaves() throws {
        var tree = try onTheConfirmStep()
        let shown = tree
        #expect(try tree.followLink("/accounts/1").isEmpty && tree.releaseHeldLinks().isEmpty)
        _ = try tree.followLink("/pay/7?amount=5")
        #expect(tree.heldLinks == ["/accounts/1", "/pay/7?amount=5"] && tree.nodes == shown.nodes && tree.focus == shown.focus)
        let block = tree.changeBlock(since: shown, operationEvents: [])
        #expect(block == [.heldLinksChanged(["/accounts/1", "/pay/7?amount=5"])])
        // A link that could not be followed now is refused at once; a fifth waits for none.
        #expect(throws: NavigationError.self) { try tree.followLink("/nowhere") }
        _ = try tree.followLink("/accounts/2")
        _ = try tree.followLink("/accounts/3")
        let full = #expect(throws: NavigationError.self) { try tree.followLink("/accounts/4") }
        #expect(full?.code == "links_held" && tree.heldLinks.count == CoordinatorTree.maximumHeldLinks)
        // Back from the step: every link applies, the last one's target shown.
        let before = tree
        var events = try tree.pop(navigator: nil, target: .top)
        events += tree.releaseHeldLinks()
        #expect(tree.heldLinks.isEmpty && tree.selectedTab == "accounts" && tree[node: tree.focus].params["id"] == "3")
        let applied = tree.changeBlock(since: before, operationEvents: events)
        #expect(applied.last == .heldLinksChanged([]))
        // The transfer sheet left: its result stays on its parent, as the step keeps it.
        tree.keepResults(of: applied, version: 9)
        var replayed = before
        replayed.replay(applied, version: 9)
        #expect(replayed.nodes == tree.nodes && replayed.heldLinks == tree.heldLinks && replayed.selectedTab == tree.selectedTab)
        tree.checkInvariants()
    }

    @Test func signingOutDropsTheHeldLinksAndTheyOutliveASnapshot() throws {
        var tree = try onTheConfirmStep()
        _ = try tree.followLink("/accounts/1")
        #expect(try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: Self.bank) == tree)
        _ = try tree.updateFlags(set: [], clear: ["signedIn"])
        #expect(tree.heldLinks.isEmpty && tree.flow != "main")
    }
}
