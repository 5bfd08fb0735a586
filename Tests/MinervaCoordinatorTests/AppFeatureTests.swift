@testable import MinervaCoordinator
import MinervaJSON
import TestSupport
import Testing

func screens(_ tree: CoordinatorTree, _ navigator: NavigatorID) -> [String] {
    tree.navigators[navigator]!.stack.map { tree.nodes[$0]!.screen }
}

@Suite struct NavigateAndDeepLinkTests {
    var tree = CoordinatorTree(app: .basic)

    @Test mutating func navigateUsesTheScreensPresentation() throws {
        let (_, photo) = try checked(&tree) { try $0.navigate(screen: "photo", params: ["photoId": "1"]) }
        #expect(tree.nodes[photo]?.presentation == Presentation(.present, style: .fullScreen))
        try checked(&tree) { try $0.dismiss() }
        try checked(&tree) { try $0.navigate(screen: "profile", params: ["userId": "1"]) }
        #expect(screens(tree, .main) == ["home", "profile"])
    }

    @Test mutating func deepLinkResetsThenBuildsAndRoundTrips() throws {
        try checked(&tree) { try $0.push(screen: "settings") }
        try checked(&tree) { try $0.present(screen: "onboarding") }
        // The path gives userId and the screen declares no ref: the query sets neither.
        let (events, route) = try checked(&tree) { try $0.deepLink("basic://users/42/followers?ref=x&userId=7") }
        #expect(route == "/users/:userId/followers")
        #expect(removals(events) == ["n3:deepLink", "n2:deepLink"])
        #expect(screens(tree, .main) == ["home", "profile", "followers"])
        #expect(tree.nodes[tree.focus]?.params == ["userId": "42"])
        #expect(tree.link() == "/users/42/followers")
    }

    @Test mutating func deepLinksAreAllOrNothing() throws {
        try checked(&tree) { try $0.push(screen: "followers", params: ["userId": 1]) }
        expectRefused(&tree, .conflict) { try $0.deepLink("/broken") }
        expectRefused(&tree, .notFound) { try $0.deepLink("/nowhere") }
        expectRefused(&tree, .notFound) { try $0.deepLink("other://users/1") }
        expectRefused(&tree, .notFound) { try $0.deepLink("") }
    }

    @Test mutating func linkIsNilWithoutARoute() throws {
        #expect(tree.link() == nil)
        try checked(&tree) { try $0.push(screen: "profile", params: ["userId": 5]) }
        #expect(tree.link() == "/users/5")
        try checked(&tree) { try $0.push(screen: "settings") }
        #expect(tree.link() == nil)
    }

    @Test mutating func aGuardedStepShowsItsFlowAndResumesAfterSuccess() throws {
        try checked(&tree) { try $0.deepLink("/secret") }
        let login = tree.focus
        #expect(tree.nodes[login]?.screen == "login")
        #expect(tree.pending?.guarded?.steps.map(\.screen) == ["secret", "settings"])
        let events = try checked(&tree) { try $0.finish(node: login, status: .success) }
        #expect(removals(events) == ["\(login):finish", "\(login):finished"])
        #expect(tree.flags == ["signedIn"])
        #expect(tree.pending == nil)
        #expect(screens(tree, .main) == ["home", "settings", "secret", "settings"])
    }

    @Test mutating func cancellingOrRemovingTheFlowDropsTheTarget() throws {
        try checked(&tree) { try $0.navigate(screen: "secret") }
        let login = tree.focus
        try checked(&tree) { try $0.finish(node: login, status: .cancelled) }
        #expect(tree.pending == nil && tree.flags.isEmpty)
        try checked(&tree) { try $0.navigate(screen: "secret") }
        try checked(&tree) { try $0.dismiss() }
        #expect(tree.pending == nil)
    }

    @Test mutating func finishRemovesAsShown() throws {
        try checked(&tree) { try $0.push(screen: "settings") }                      // n2
        try checked(&tree) { try $0.push(screen: "settings") }                      // n3
        let popped = try checked(&tree) { try $0.finish(node: NodeID(2), status: .success, value: 7) }
        #expect(removals(popped) == ["n3:finish", "n2:finish", "n2:finished"])
        guard case .finished(let finished) = popped.last! else { Issue.record("no finished event"); return }
        #expect(finished.parent == NodeID(1))
        #expect(finished.result == ["status": "success", "value": 7])
        expectRefused(&tree, .conflict) { try $0.finish(node: NodeID(1), status: .success) }
        expectRefused(&tree, .conflict) { try $0.finish(node: NodeID(0), status: .success) }
        expectRefused(&tree, .conflict) { _ = try $0.resolve(node: "n2") }
        let next = "n\(tree.idCounters.nextNode)"
        expectRefused(&tree, .notFound) { _ = try $0.resolve(node: next) }
    }
}

@Suite struct TabTests {
    var tree = CoordinatorTree(app: .tabs)

    @Test mutating func eachTabKeepsItsStack() throws {
        #expect(tree.baseNavigators == ["tab:home", "tab:account"])
        #expect(tree.selectedTab == "home")
        try checked(&tree) { try $0.navigate(screen: "profile", params: ["userId": "1"]) }
        try checked(&tree) { try $0.selectTab("account") }
        #expect(tree.focus == NodeID(2))
        try checked(&tree) { try $0.selectTab("home") }
        #expect(tree.focus == NodeID(3))
        expectRefused(&tree, .invalid) { try $0.selectTab("nope") }
    }

    @Test mutating func deepLinkSelectsTheRoutesTabAndKeepsOtherStacks() throws {
        try checked(&tree) { try $0.selectTab("account") }
        try checked(&tree) { try $0.navigate(screen: "editProfile") }
        // The sheet covers the tab bar: the tab changes only with it dismissed.
        #expect(throws: NavigationError.self) { try tree.selectTab("home") }
        let dismissed = try checked(&tree) { try $0.selectTab("home", dismiss: true) }
        #expect(removals(dismissed) == ["n3:dismiss", "n3:finished"])
        try checked(&tree) { try $0.navigate(screen: "followers", params: ["userId": "9"]) }
        let (events, _) = try checked(&tree) { try $0.deepLink("tabs://users/1") }
        #expect(removals(events) == ["n4:deepLink"])
        #expect(screens(tree, "tab:home") == ["home", "profile"])
        #expect(screens(tree, "tab:account") == ["account"])
        #expect(tree.link() == "/users/1")
    }

    @Test func aTabsAppCannotBeSplit() {
        #expect(throws: NavigationError.self) { try CoordinatorTree.check(layout: .split, for: .tabs) }
    }
}

@Suite struct UnknownScreenTests {
    /// The basic app without `photo`: what a session sees after the app dropped a screen.
    static let withoutPhoto: AppDescription = {
        var screens = AppDescription.basic.screens
        screens["photo"] = nil
        return AppDescription(name: "basic", scheme: "basic", root: AppDescription.basic.root, screens: screens)
    }()

    @Test func aRestoredTreeNamesScreensTheAppNoLongerDeclaresUntilTheyAreGone() throws {
        var tree = CoordinatorTree(app: .basic)
        try tree.push(screen: "settings")
        #expect(tree.unknownScreens.isEmpty)
        try tree.present(screen: "photo", params: ["photoId": "1"])
        var restored = try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: Self.withoutPhoto)
        #expect(restored.unknownScreens == ["photo"])
        _ = try restored.dismiss()
        #expect(restored.unknownScreens.isEmpty)
        #expect(try CoordinatorTree(snapshot: JSONParser.parse(restored.snapshotBytes), app: Self.withoutPhoto).unknownScreens.isEmpty)
    }
}
