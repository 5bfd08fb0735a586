@testable import MinervaCoordinator
import MinervaJSON
import Testing

/// Root flows chosen by launch rules, switches as one block, deep links kept for a later flow,
/// and links that keep what is shown (reconcile).
@Suite struct FlowTests {
    /// Runs an operation and returns its whole block, checking that replaying the block on the
    /// tree before gives the tree after.
    func block(
        _ tree: inout CoordinatorTree, _ operation: (inout CoordinatorTree) throws(NavigationError) -> [NavigationEvent]
    ) throws -> [NavigationEvent] {
        let before = tree
        let events = try operation(&tree)
        let block = tree.changeBlock(since: before, operationEvents: events)
        tree.keepResults(of: block, version: 1)
        var replayed = before
        replayed.replay(block, version: 1)
        #expect(replayed.nodes == tree.nodes && replayed.navigators == tree.navigators && replayed.flow == tree.flow)
        #expect(replayed.selectedTab == tree.selectedTab && replayed.flags == tree.flags && replayed.pending == tree.pending)
        #expect(replayed.overlay == tree.overlay && replayed.heldLinks == tree.heldLinks)
        tree.checkInvariants()
        return block
    }

    func types(_ block: [NavigationEvent]) -> [String] {
        block.map { event in
            switch event {
            case .added(let added): "added \(added.screen)"
            case .removed(let removed): "removed \(removed.screen) \(removed.reason.rawValue)"
            case .finished(let finished): "finished \(finished.screen)"
            case .flowChanged(let change): "flowChanged \(change.from)→\(change.to)"
            case .overlayChanged(let overlay): "overlayChanged \(overlay ?? "null")"
            case .paramsChanged(let node, _): "paramsChanged \(node)"
            case .tabSelected(let tab): "tabSelected \(tab)"
            case .flagsChanged: "flagsChanged"
            case .pendingChanged(let pending): "pendingChanged \(pending?.link?.url ?? pending.map { _ in "target" } ?? "null")"
            case .stackChanged: "stackChanged"
            case .uiChanged(let node, _): "uiChanged \(node)"
            case .presentationChanged(let node, let selected, let dismissible):
                "presentationChanged \(node) \(selected ?? "-") \(dismissible.map(String.init) ?? "-")"
            case .sizeClassChanged(let horizontal): "sizeClassChanged \(horizontal)"
            case .displayModeChanged(let mode): "displayModeChanged \(mode)"
            case .heldLinksChanged(let links): "heldLinksChanged \(links.joined(separator: " "))"
            case .resultConsumed(let node, let screen): "resultConsumed \(node) \(screen)"
            }
        }
    }

    func signedIn() -> CoordinatorTree {
        CoordinatorTree(app: .fit, flags: ["onboarded", "signedIn"])
    }

    @Test func eachLaunchPathStartsInItsFlow() {
        #expect(CoordinatorTree(app: .fit).flow == "onboarding")
        #expect(CoordinatorTree(app: .fit, flags: ["onboarded"]).flow == "auth")
        let main = signedIn()
        #expect(main.flow == "main" && main.selectedTab == "today" && main.baseNavigators == ["tab:today", "tab:me"])
        let desk = CoordinatorTree(app: .fit, flags: ["onboarded", "signedIn", "desk"])
        #expect(desk.flow == "desk" && desk.layout == .split && desk.baseNavigators == [.primary, .detail])
        // A single-root app is one flow, `main`.
        #expect(CoordinatorTree(app: .basic).flow == "main")
    }

    @Test func finishingACompletingFlowSwitchesInOneBlock() throws {
        var tree = CoordinatorTree(app: .fit)
        let welcome = tree.focus
        let block = try block(&tree) { tree throws(NavigationError) in try tree.finish(node: welcome, status: .success, value: "done") }
        #expect(types(block) == ["removed welcome flowChanged", "finished welcome", "flowChanged onboarding→auth", "added login", "flagsChanged"])
        guard case .finished(let finished) = block[1] else { return }
        #expect(finished.parent == tree.rootID && finished.result == ["status": "success", "value": "done"])
        #expect(tree.flow == "auth" && tree.flags == ["onboarded"])
        // Cancelling a flow's root, or finishing a flow that completes nothing, stays refused.
        #expect(throws: NavigationError.self) { try tree.finish(node: tree.focus, status: .cancelled) }
        var main = signedIn()
        #expect(throws: NavigationError.self) { try main.finish(node: main.focus, status: .success) }
    }

    @Test func aSwitchIntoTabsRemovesEverythingTopMostFirstAndSelectsTheFirstTab() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded"])
        _ = try tree.present(screen: "signup", params: [:], from: nil, style: nil, embedInNavigation: nil)
        let block = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: ["signedIn"], clear: []) }
        #expect(types(block) == [
            "removed signup flowChanged", "removed login flowChanged", "flowChanged auth→main", "added dashboard", "added profile",
            "tabSelected today", "flagsChanged",
        ])
        // Signing out goes back, and the old flow's nodes never come back.
        let back = try self.block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["signedIn"]) }
        #expect(types(back) == ["removed dashboard flowChanged", "removed profile flowChanged", "flowChanged main→auth", "added login", "flagsChanged"])
        #expect(tree.nodes.count == 2 && tree.selectedTab == nil)
    }

    @Test func aLinkWaitsAcrossOnboardingAndSignInThenAppliesInTheSwitchingBlock() throws {
        var tree = CoordinatorTree(app: .fit)
        let kept = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("fit://workouts/7/play").events }
        #expect(types(kept) == ["pendingChanged fit://workouts/7/play"])
        // A newer link replaces it.
        _ = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/8/play").events }
        let welcome = tree.focus
        let onboarded = try block(&tree) { tree throws(NavigationError) in try tree.finish(node: welcome, status: .success) }
        #expect(!types(onboarded).contains { $0.hasPrefix("pendingChanged") } && tree.pending?.link?.url == "/workouts/8/play")
        let login = tree.focus
        let signedIn = try block(&tree) { tree throws(NavigationError) in try tree.finish(node: login, status: .success) }
        #expect(types(signedIn) == [
            "removed login flowChanged", "finished login", "flowChanged auth→main", "added dashboard", "added profile", "added workout",
            "added player", "tabSelected today", "flagsChanged", "pendingChanged null",
        ])
        #expect(tree.nodes[tree.focus]?.screen == "player" && tree.pending == nil)
    }

    @Test func clearingAFlagDropsAPendingLink() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded"])
        try tree.deepLink("/workouts/7")
        let block = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["onboarded"]) }
        #expect(types(block).last == "pendingChanged null" && tree.flow == "onboarding" && tree.pending == nil)
    }

    @Test func aLinkIntoAnEarlierFlowIsRefusedNamingTheFlags() {
        var tree = signedIn()
        #expect {
            try tree.deepLink("/signup")
        } throws: { error in
            let error = error as! NavigationError
            return error.category == .conflict && error.description.contains("'signedIn' is clear") && error.description.contains("flow 'auth'")
        }
        // Desk comes before main in launch too.
        #expect(throws: NavigationError.self) { try tree.deepLink("/folders/1") }
    }

    @Test func aLinkKeepsTheLongestMatchingPrefixAndChangesParamsInPlace() throws {
        var tree = signedIn()
        _ = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/7").events }
        let workout = tree.focus
        // The same link again: nothing happens.
        let same = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/7").events }
        #expect(same.isEmpty)
        // Deeper: the workout stays (its id too), the player comes on top.
        let deeper = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/7/play").events }
        #expect(types(deeper) == ["added player"] && tree.nodes[workout] != nil)
        // Shallower: what lies above goes.
        let shallower = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("https://FIT.example.com/workouts/7").events }
        // The player is presented: its parent learns that it was cancelled (and holds no result:
        // the player does not say it returns one).
        #expect(types(shallower) == ["removed player deepLink", "finished player"] && tree.focus == workout)
        #expect(tree.nodes[workout]?.results == nil)
        // Other params than the key change in place.
        let edited = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/7?mode=edit").events }
        #expect(types(edited) == ["paramsChanged \(workout)"] && tree.nodes[workout]?.params == ["id": "7", "mode": "edit"])
        // Another key: replaced.
        let other = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/8").events }
        #expect(types(other) == ["removed workout deepLink", "added workout"])
        // A fresh step is replaced even when it matches.
        let fresh = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/8/again").events }
        #expect(types(fresh) == ["removed workout deepLink", "added workout"])
    }

    @Test func otherTabsKeepTheirStacksAndAWindowCoverOverThemGoes() throws {
        var tree = signedIn()
        _ = try tree.selectTab("me")
        _ = try tree.push(screen: "folders", params: [:], from: nil)
        _ = try tree.present(screen: "editor", params: [:], from: nil, style: nil, embedInNavigation: nil)
        let block = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/workouts/1").events }
        #expect(types(block) == ["removed editor deepLink", "finished editor", "added workout", "tabSelected today"])
        #expect(screens(tree, "tab:me") == ["profile", "folders"])
        // A guarded step in the target shows its flow and keeps the rest pending, as today.
        let guarded = try self.block(&tree) { tree throws(NavigationError) in try tree.deepLink("/me/settings").events }
        #expect(types(guarded) == ["removed folders deepLink", "added paywall", "tabSelected me", "pendingChanged target"])
    }

    @Test func paramsChangeInPlaceOnlyForDeclaredParams() throws {
        var tree = signedIn()
        try tree.deepLink("/workouts/3")
        let node = tree.focus
        let changed = try block(&tree) { tree throws(NavigationError) in try tree.updateParams(node: node, set: ["mode": "edit"], unset: []) }
        #expect(types(changed) == ["paramsChanged \(node)"])
        #expect(try tree.updateParams(node: node, set: ["mode": "edit"], unset: []).isEmpty)
        let before = tree
        #expect(throws: NavigationError.self) { try tree.updateParams(node: node, set: ["colour": "red"], unset: []) }
        #expect(throws: NavigationError.self) { try tree.updateParams(node: node, set: [:], unset: ["mode"]) }
        #expect(throws: NavigationError.self) { try tree.updateParams(node: node, set: [:], unset: ["colour"]) }
        #expect(throws: NavigationError.self) { try tree.updateParams(node: NodeID(0), set: [:], unset: []) }
        #expect(tree == before)
    }

    @Test(arguments: [
        ("https://shop.example.com/workouts/1", "not one of this app's: fit.example.com"),
        ("http://fit.example.com/workouts/1", "try 'https://fit.example.com/workouts/1'"),
        ("/workout/1", "did you mean '/workouts/1'?"),
        ("fit://workuots/1/play", "did you mean '/workouts/1/play'?"),
        ("/nothing/like/it/at/all", "the routes are: /tour/:page"),
    ])
    func unmatchedLinksSayWhatToSendInstead(url: String, hint: String) {
        var tree = signedIn()
        #expect {
            try tree.deepLink(url)
        } throws: { error in
            let error = error as! NavigationError
            return error.category == .notFound && error.description.contains(hint)
        }
    }

    @Test func aFailingRouteStepNamesTheRouteTheStepAndTheFix() {
        var tree = CoordinatorTree(app: .basic)
        #expect {
            try tree.deepLink("/broken")
        } throws: { error in
            let message = (error as! NavigationError).description
            return message.contains("route '/broken'") && message.contains("step 2 (screen 'settings')")
                && message.contains("routes[4].steps[0] \"embedInNavigation\": true") && !message.contains("'v")
        }
    }

    @Test func theSnapshotKeepsTheFlowAndAPendingLink() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded"])
        try tree.deepLink("/workouts/2")
        let restored = try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: .fit)
        #expect(restored == tree && restored.flow == "auth" && restored.pending?.link == PendingLink(url: "/workouts/2", flow: "main"))
    }

    @Test func aPresentedNodeMatchesOnlyWithTheEmbeddingTheStepWouldGiveIt() throws {
        var tree = signedIn()
        _ = try tree.present(screen: "editor", params: [:], from: nil, style: nil, embedInNavigation: false)
        let block = try block(&tree) { tree throws(NavigationError) in try tree.deepLink("/edit").events }
        #expect(types(block) == ["removed editor deepLink", "finished editor", "added editor"])
        #expect(try self.block(&tree) { tree throws(NavigationError) in try tree.deepLink("/edit").events }.isEmpty)
    }

    @Test func aLinkForALaterFlowDoesNotTakeTheSlotOfAGuardedTarget() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded", "signedIn", "desk"])
        try tree.navigate(screen: "settings")
        let before = tree
        #expect {
            try tree.deepLink("/workouts/1")
        } throws: { error in
            let error = error as! NavigationError
            return error.category == .conflict && error.description.contains("finish or dismiss that flow first")
        }
        #expect(tree == before && tree.pending?.guarded != nil)
    }

    @Test func theLinkOfWhatIsShownIsARouteOfTheSessionsFlow() throws {
        var tree = CoordinatorTree(app: .fit, flags: ["onboarded"])
        _ = try tree.present(screen: "signup", params: [:], from: nil, style: nil, embedInNavigation: nil)
        #expect(tree.link() == "/signup")
        var main = signedIn()
        try main.deepLink("/workouts/3")
        #expect(main.link() == "/workouts/3")
    }
}
