@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Only what a device can show: presentation levels, presents from hidden or covered
/// navigators, tab changes under a window cover, results from every flow, and UI state.
@Suite struct PresentableStateTests {
    /// Applies an operation's block as the session core does: results are written with the version.
    @discardableResult
    func apply(
        _ tree: inout CoordinatorTree, version: Int, _ operation: (inout CoordinatorTree) throws(NavigationError) -> [NavigationEvent]
    ) throws -> [NavigationEvent] {
        let before = tree
        let events = try operation(&tree)
        let block = tree.changeBlock(since: before, operationEvents: events)
        tree.keepResults(of: block, version: version)
        var replayed = before
        replayed.replay(block, version: version)
        #expect(replayed == tree, "replaying the block gives another tree")
        tree.checkInvariants()
        return block
    }

    func code(_ operation: () throws(NavigationError) -> Void) -> String? {
        do throws(NavigationError) {
            try operation()
            return nil
        } catch {
            return error.code ?? "\(error.category)"
        }
    }

    @Test func presentedNodesHaveTheLevelOfTheirStyle() {
        #expect(Presentation(.present, style: .pageSheet).level == .window)
        #expect(Presentation(.present, style: .popover).level == .window)
        #expect(Presentation(.present, style: .currentContext).level == .context)
        #expect(Presentation(.present, style: .overCurrentContext).level == .context)
        #expect(Presentation(.push).level == nil && Presentation(.tab).level == nil)
    }

    @Test func aHiddenTabCannotPresent() throws {
        var tree = CoordinatorTree(app: .tabs)
        let before = tree
        #expect(code { () throws(NavigationError) in _ = try tree.present(screen: "photo", params: ["photoId": "1"], from: NodeID(2)) } == "not_visible")
        #expect(tree == before)
        try tree.selectTab("account")
        _ = try tree.present(screen: "photo", params: ["photoId": "1"], from: NodeID(2))
    }

    @Test func aWindowCoverBlocksPresentsFromBelowItsChainAndTabChanges() throws {
        var tree = CoordinatorTree(app: .tabs)
        let sheet = try tree.present(screen: "editProfile").node  // window level, from tab:home
        let before = tree
        // The presenting navigator already presents: the conflict keeps its code.
        #expect(code { () throws(NavigationError) in _ = try tree.present(screen: "login", from: NodeID(1)) } == "conflict")
        #expect(code { () throws(NavigationError) in _ = try tree.selectTab("account") } == "covered")
        // Selecting the selected tab stays a no-op, covered or not.
        #expect(try tree.selectTab("home").isEmpty)
        #expect(tree == before)
        // On top of the cover, and pushes under it, are fine.
        _ = try tree.push(screen: "profile", params: ["userId": "1"], from: NodeID(1))
        _ = try tree.present(screen: "photo", params: ["photoId": "1"], from: sheet)
        let block = try apply(&tree, version: 5) { tree throws(NavigationError) in try tree.selectTab("account", dismiss: true) }
        let kinds = block.map { event -> String in
            switch event {
            case .removed(let removed): "removed \(removed.node) \(removed.reason)"
            case .finished(let finished): "finished \(finished.node)"
            case .tabSelected(let tab): "tab \(tab)"
            default: "\(event)"
            }
        }
        // The photo leaves with its parent (the sheet); the sheet's parent stays: one result
        // (Edit Profile says it returns one).
        #expect(kinds == ["removed n5 dismiss", "removed \(sheet) dismiss", "finished \(sheet)", "tab account"])
        #expect(tree.nodes[NodeID(1)]?.results?["editProfile"] == FlowResult(status: .cancelled, value: nil, version: 5))
    }

    @Test func aContextLevelPresentationStaysWithItsTab() throws {
        var tree = CoordinatorTree(app: .tabs)
        let sheet = try tree.present(screen: "photo", params: ["photoId": "1"], style: .overCurrentContext).node
        try tree.selectTab("account")
        _ = try tree.present(screen: "editProfile")
        #expect(code { () throws(NavigationError) in _ = try tree.selectTab("home") } == "covered")
        _ = try tree.dismiss()
        try tree.selectTab("home")
        #expect(tree.focus == sheet)
        tree.checkInvariants()
    }

    @Test func everyFlowRootThatLeavesWhileItsParentStaysIsCancelledWithItsCause() throws {
        var tree = CoordinatorTree(app: .tabs)
        let photo = try tree.present(screen: "photo", params: ["photoId": "1"]).node
        var block = try apply(&tree, version: 3) { tree throws(NavigationError) in try tree.dismiss(node: photo, interactive: false) }
        guard case .finished(let finished) = block.last else { Issue.record("no finished"); return }
        #expect(finished.result == ["status": "cancelled", "cause": "dismiss"] && finished.parent == NodeID(1))
        // A pushed screen is no flow root unless its screen says so.
        _ = try tree.push(screen: "profile", params: ["userId": "1"])
        block = try apply(&tree, version: 4) { tree throws(NavigationError) in try tree.pop() }
        #expect(!block.contains { if case .finished = $0 { true } else { false } })
        // Latest wins per screen; a result is kept until taken.
        _ = try tree.present(screen: "photo", params: ["photoId": "2"])
        _ = try apply(&tree, version: 6) { tree throws(NavigationError) in try tree.finish(node: tree.focus, status: .success, value: "ok") }
        #expect(tree.nodes[NodeID(1)]?.results?["photo"] == FlowResult(status: .success, value: "ok", version: 6))
        let snapshot = try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: .tabs)
        #expect(snapshot == tree)
        #expect(throws: NavigationError.self) { try tree.consumeResult(of: NodeID(1), screen: "editProfile") }
        block = try apply(&tree, version: 7) { tree throws(NavigationError) in try tree.consumeResult(of: NodeID(1), screen: "photo") }
        #expect(block == [.resultConsumed(node: NodeID(1), screen: "photo")] && tree.nodes.values.allSatisfy { $0.results == nil })
    }

    @Test func uiStateLivesWithItsNodeAndComesBackWithRestore() throws {
        var tree = CoordinatorTree(app: .tabs)
        let profile = try tree.push(screen: "profile", params: ["userId": "1"]).node
        let block = try apply(&tree, version: 2) { tree throws(NavigationError) in try tree.setUI(of: profile, to: ["scrollAnchor": "a"]) }
        #expect(block == [.uiChanged(node: profile, ui: ["scrollAnchor": "a"])])
        #expect(try tree.setUI(of: profile, to: ["scrollAnchor": "a"]).isEmpty)
        #expect(throws: NavigationError.self) { try tree.setUI(of: NodeID(0), to: ["a": 1]) }
        let then = tree
        try tree.setUI(of: profile, to: ["scrollAnchor": "b"])
        _ = try tree.pop()
        #expect(tree.nodes.values.allSatisfy { $0.ui == nil })
        let restored = try tree.restore(then)
        #expect(tree.nodes[profile]?.ui == ["scrollAnchor": "a"])
        #expect(restored.contains(.uiChanged(node: profile, ui: ["scrollAnchor": "a"])))
    }
}

/// A sheet's detents, a popover's anchor and `dismissible`: from the screen or the present,
/// in the state, changed by the user, and refusing what would not hold together.
@Suite struct PresentationSettingsTests {
    let sheet = PresentationSettings.Sheet(
        detents: [.medium, .large, PresentationSettings.Detent(id: "peek", height: 120)], selected: "medium", grabber: true, undimmedUpTo: "medium")

    @Test func aPresentTakesItsSheetAndTheScreensDismissibleAndTheUserMovesTheDetent() throws {
        var tree = CoordinatorTree(app: .tabs)
        let node = try tree.present(screen: "editProfile", settings: PresentationSettings(sheet: sheet, dismissible: false)).node
        #expect(tree.nodes[node]?.settings == PresentationSettings(sheet: sheet, dismissible: false))
        #expect(try tree.changePresentation(of: node, selected: "medium", dismissible: nil).isEmpty)
        #expect(
            try tree.changePresentation(of: node, selected: "peek", dismissible: nil) == [
                .presentationChanged(node: node, selected: "peek", dismissible: nil)
            ])
        #expect(throws: NavigationError.self) { try tree.changePresentation(of: node, selected: "tall", dismissible: nil) }
        #expect(throws: NavigationError.self) { try tree.changePresentation(of: NodeID(1), selected: "peek", dismissible: nil) }
        #expect(throws: NavigationError.self) { try tree.changePresentation(of: node, selected: nil, dismissible: nil) }
        let before = tree
        do {
            _ = try tree.dismiss(node: node, interactive: true)
            Issue.record("an undismissible sheet was swiped away")
        } catch {
            #expect(error.code == "not_dismissible")
        }
        #expect(tree == before)
        #expect(try !tree.dismiss(node: node).isEmpty)
        #expect(tree.nodes.values.allSatisfy { $0.settings == nil })
    }

    @Test func settingsThatDoNotHoldTogetherAreRefused() throws {
        var tree = CoordinatorTree(app: .tabs)
        let cases: [(ModalStyle?, PresentationSettings)] = [
            (.fullScreen, PresentationSettings(sheet: sheet)),
            (nil, PresentationSettings(sheet: .init(detents: []))),
            (nil, PresentationSettings(sheet: .init(detents: [.medium], selected: "large"))),
            (nil, PresentationSettings(sheet: .init(detents: [.medium, .medium]))),
            (.pageSheet, PresentationSettings(anchor: ["item": "a"])),
            (.popover, PresentationSettings()),
        ]
        for (style, settings) in cases {
            #expect(throws: NavigationError.self, "\(settings)") { try tree.present(screen: "editProfile", style: style, settings: settings) }
        }
        _ = try tree.present(screen: "editProfile", style: .popover, settings: PresentationSettings(anchor: ["item": "cell-3"]))
        // A pushed screen takes no presentation settings.
        var other = CoordinatorTree(app: .tabs)
        #expect(throws: NavigationError.self) { try other.navigate(screen: "profile", params: ["userId": "1"], settings: PresentationSettings(dismissible: false)) }
    }

    @Test func settingsSurviveTheSnapshotAndTheReplay() throws {
        var tree = CoordinatorTree(app: .tabs)
        let before = tree
        let events = try tree.present(screen: "editProfile", style: .popover, settings: PresentationSettings(sheet: sheet, anchor: ["item": "c"])).events
        var replayed = before
        replayed.replay(tree.changeBlock(since: before, operationEvents: events), version: 2)
        #expect(replayed == tree)
        #expect(try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: .tabs) == tree)
    }
}

/// What a restore brings back: the UI state of then, not results, the size class or a pending link.
@Suite struct RestoreOfPresentableStateTests {
    @Test func aPendingLinkOfNowStaysAndOneOfThenDoesNotComeBack() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded"])
        let before = tree
        try tree.deepLink("/workouts/2")
        #expect(tree.pending?.link != nil)
        _ = try tree.restore(before)
        #expect(tree.pending?.link == PendingLink(url: "/workouts/2", flow: "main"))
        let withLink = tree
        // A link followed in this flow leaves the one waiting for a later flow alone.
        try tree.deepLink("/signup")
        #expect(tree.pending?.link == PendingLink(url: "/workouts/2", flow: "main"))
        // Clearing a flag drops it; restoring a version that had it does not bring it back.
        try tree.updateFlags(set: ["premium"], clear: [])
        try tree.updateFlags(set: [], clear: ["premium"])
        #expect(tree.pending == nil)
        _ = try tree.restore(withLink)
        #expect(tree.pending == nil)
        tree.checkInvariants()
    }
}
