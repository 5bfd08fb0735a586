@testable import MinervaCoordinator
import MinervaJSON
import Testing

/// Runs an operation and checks the invariants after it.
@discardableResult
func checked<T>(_ tree: inout CoordinatorTree, _ operation: (inout CoordinatorTree) throws -> T) rethrows -> T {
    let result = try operation(&tree)
    tree.checkInvariants()
    return result
}

/// Asserts that the operation fails with `category` and leaves the tree exactly as it was.
func expectRefused(
    _ tree: inout CoordinatorTree, _ category: NavigationError.Category,
    _ operation: (inout CoordinatorTree) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) {
    let before = tree
    do {
        try operation(&tree)
        Issue.record("expected a \(category) error", sourceLocation: sourceLocation)
    } catch let error as NavigationError {
        #expect(error.category == category, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    #expect(tree == before, "a refused operation changed the tree", sourceLocation: sourceLocation)
    tree.checkInvariants()
}

func removals(_ events: [NavigationEvent]) -> [String] {
    events.map { event in
        guard case .removed(let removed) = event else { return "\(event.node!):finished" }
        return "\(removed.node):\(removed.reason.rawValue)"
    }
}

@Suite struct TreeOperationTests {
    var tree = CoordinatorTree(app: .basic)

    @Test func startsWithTheRootScreenOnTheBaseNavigator() {
        tree.checkInvariants()
        #expect(tree.focus == NodeID(1))
        #expect(tree.nodes[NodeID(1)]?.screen == "home")
        #expect(tree.nodes[NodeID(1)]?.presentation == Presentation(.root))
        #expect(tree.navigators[.main]?.stack == [NodeID(1)])
    }

    @Test mutating func pushAddsAChildOfTheFocusOnItsNavigator() throws {
        let (events, id) = try checked(&tree) { try $0.push(screen: "profile", params: ["userId": "42"]) }
        #expect(events.isEmpty)
        #expect(id == NodeID(2))
        #expect(tree.nodes[id]?.parent == NodeID(1))
        #expect(tree.nodes[id]?.params == ["userId": "42"])
        #expect(tree.focus == id)
    }

    @Test mutating func pushFromBelowTheTopGoesOnTop() throws {
        try checked(&tree) { try $0.push(screen: "settings") }
        let (_, id) = try checked(&tree) { try $0.push(screen: "settings", from: NodeID(1)) }
        #expect(tree.navigators[.main]?.stack == [NodeID(1), NodeID(2), id])
        #expect(tree.nodes[NodeID(1)]?.children == [NodeID(2), id])
    }

    @Test mutating func pushRefusals() {
        expectRefused(&tree, .notFound) { _ = try $0.resolve(node: "n9") }
        expectRefused(&tree, .notFound) { _ = try $0.resolve(node: "bogus") }
        expectRefused(&tree, .invalid) { try $0.push(screen: "nowhere") }
        expectRefused(&tree, .invalid) { try $0.push(screen: "profile") }
        expectRefused(&tree, .invalid) { try $0.push(screen: "profile", params: ["userId": .null]) }
        expectRefused(&tree, .conflict) { try $0.push(screen: "settings", from: NodeID(0)) }
    }

    @Test mutating func presentMakesANavigatorWithTheScreensDefaults() throws {
        let (_, photo) = try checked(&tree) { try $0.present(screen: "photo", params: ["photoId": 1]) }
        let navigatorID = try #require(tree.nodes[photo]?.navigator)
        #expect(tree.nodes[photo]?.presentation == Presentation(.present, style: .fullScreen))
        #expect(tree.navigators[navigatorID]?.embedded == false)
        #expect(tree.navigators[navigatorID]?.parent == .main)
        #expect(tree.navigators[.main]?.presentedNavigator == navigatorID)
        expectRefused(&tree, .conflict) { try $0.push(screen: "settings") }
        expectRefused(&tree, .conflict) { try $0.present(screen: "settings", from: NodeID(1)) }

        let (_, onboarding) = try checked(&tree) { try $0.present(screen: "onboarding", style: .pageSheet) }
        #expect(tree.nodes[onboarding]?.presentation == Presentation(.present, style: .pageSheet))
        try checked(&tree) { try $0.push(screen: "onboardingStep", params: ["step": 1]) }
        #expect(tree.navigators[tree.nodes[onboarding]!.navigator!]?.stack.count == 2)
    }

    @Test mutating func dismissRemovesEverythingPresentedAbove() throws {
        try checked(&tree) { try $0.push(screen: "settings") }               // n2
        try checked(&tree) { try $0.present(screen: "onboarding") }          // n3
        try checked(&tree) { try $0.push(screen: "onboardingStep", params: ["step": 1]) }  // n4
        try checked(&tree) { try $0.present(screen: "photo", params: ["photoId": 1]) }     // n5
        try checked(&tree) { try $0.present(screen: "settings") }           // n6
        let events = try checked(&tree) { try $0.dismiss(node: NodeID(5)) }
        // n5's parent stays, so its flow is cancelled; n6 leaves with its parent.
        #expect(removals(events) == ["n6:dismiss", "n5:dismiss", "n5:finished"])
        #expect(tree.focus == NodeID(4))
        let rest = try checked(&tree) { try $0.dismiss() }
        #expect(removals(rest) == ["n4:dismiss", "n3:dismiss", "n3:finished"])
        #expect(tree.navigatorOrder == [.main])
        expectRefused(&tree, .conflict) { try $0.dismiss() }
        expectRefused(&tree, .conflict) { try $0.dismiss(node: NodeID(2)) }
        expectRefused(&tree, .conflict) { _ = try $0.resolve(node: "n3") }
    }

    @Test mutating func dismissingAPushedNodeOfAModalIsRefused() throws {
        try checked(&tree) { try $0.present(screen: "onboarding") }
        try checked(&tree) { try $0.push(screen: "onboardingStep", params: ["step": 1]) }
        expectRefused(&tree, .conflict) { try $0.dismiss(node: NodeID(3)) }
    }

    @Test mutating func popVariants() throws {
        for index in 0..<4 { try checked(&tree) { try $0.push(screen: "followers", params: ["userId": .int(index)]) } }
        #expect(removals(try checked(&tree) { try $0.pop() }) == ["n5:pop"])
        #expect(removals(try checked(&tree) { try $0.pop(target: .to(NodeID(2))) }) == ["n4:pop", "n3:pop"])
        try checked(&tree) { try $0.push(screen: "settings") }
        #expect(removals(try checked(&tree) { try $0.pop(navigator: "v0", target: .root) }) == ["n6:pop", "n2:pop"])
        expectRefused(&tree, .conflict) { try $0.pop() }
        expectRefused(&tree, .conflict) { try $0.pop(target: .root) }
        expectRefused(&tree, .conflict) { try $0.pop(target: .to(NodeID(1))) }
        expectRefused(&tree, .conflict) { try $0.pop(target: .to(NodeID(0))) }
        expectRefused(&tree, .conflict) { _ = try $0.resolve(node: "n2") }
        expectRefused(&tree, .notFound) { _ = try $0.resolve(navigator: "v7") }
    }

    /// A pop that names its node removes that node only, and only while it is the top.
    @Test mutating func popOfANamedNodeRemovesThatNodeOnly() throws {
        try checked(&tree) { try $0.push(screen: "followers", params: ["userId": 1]) }
        try checked(&tree) { try $0.push(screen: "followers", params: ["userId": 2]) }
        expectRefused(&tree, .conflict) { try $0.pop(target: .node(NodeID(2))) }
        expectRefused(&tree, .conflict) { try $0.pop(target: .node(NodeID(0))) }
        expectRefused(&tree, .conflict) { try $0.pop(target: .node(NodeID(1))) }
        try checked(&tree) { try $0.present(screen: "onboarding") }
        expectRefused(&tree, .invalid) { try $0.pop(navigator: "v1", target: .node(NodeID(3))) }
        try checked(&tree) { try $0.dismiss() }
        #expect(removals(try checked(&tree) { try $0.pop(navigator: "v0", target: .node(NodeID(3))) }) == ["n3:pop"])
        #expect(removals(try checked(&tree) { try $0.pop(target: .node(NodeID(2))) }) == ["n2:pop"])
    }

    @Test mutating func popTakesModalsOfPoppedNodesAlong() throws {
        try checked(&tree) { try $0.push(screen: "settings") }               // n2
        try checked(&tree) { try $0.present(screen: "onboarding") }          // n3 from n2
        try checked(&tree) { try $0.push(screen: "onboardingStep", params: ["step": 1]) }  // n4
        expectRefused(&tree, .conflict) { try $0.pop(target: .to(NodeID(4))) }
        expectRefused(&tree, .invalid) { try $0.pop(navigator: "v0", target: .to(NodeID(4))) }
        let events = try checked(&tree) { try $0.pop(navigator: "v0") }
        #expect(removals(events) == ["n4:ancestorRemoved", "n3:ancestorRemoved", "n2:pop"])
        #expect(tree.navigators.count == 1)
    }

    @Test mutating func modalFromBelowTheTopSurvivesAPopAbove() throws {
        try checked(&tree) { try $0.push(screen: "settings") }               // n2
        try checked(&tree) { try $0.present(screen: "settings", from: NodeID(1)) } // n3, child of n1
        let events = try checked(&tree) { try $0.pop(navigator: "v0") }
        #expect(removals(events) == ["n2:pop"])
        #expect(tree.focus == NodeID(3))
    }

    @Test mutating func setRootReplacesTheStackWithSiblings() throws {
        try checked(&tree) { try $0.push(screen: "settings") }
        try checked(&tree) { try $0.present(screen: "settings") }
        let (events, ids) = try checked(&tree) {
            try $0.setRoot(navigator: "v0", stack: [("profile", ["userId": "1"]), ("followers", ["userId": "1"])])
        }
        #expect(removals(events) == ["n3:ancestorRemoved", "n2:setRoot", "n1:setRoot"])
        #expect(ids == [NodeID(4), NodeID(5)])
        #expect(tree.nodes[tree.rootID]?.children == ids)
        #expect(tree.nodes[NodeID(4)]?.presentation == Presentation(.root))
        #expect(tree.nodes[NodeID(5)]?.presentation == Presentation(.push))
        #expect(tree.navigators.count == 1)
    }

    @Test mutating func setRootOnAPresentedNavigatorKeepsItsStyleAndPresenter() throws {
        try checked(&tree) { try $0.present(screen: "photo", params: ["photoId": 1]) }   // n2 on v1
        let (events, ids) = try checked(&tree) { try $0.setRoot(stack: [("photo", ["photoId": 2])]) }
        #expect(removals(events) == ["n2:setRoot", "n2:finished"])
        #expect(tree.nodes[ids[0]]?.presentation == Presentation(.present, style: .fullScreen))
        #expect(tree.nodes[ids[0]]?.parent == NodeID(1))
        expectRefused(&tree, .conflict) { try $0.setRoot(stack: [("settings", [:]), ("settings", [:])]) }
        expectRefused(&tree, .invalid) { try $0.setRoot(stack: []) }
        expectRefused(&tree, .invalid) { try $0.setRoot(stack: [("settings", [:]), ("nowhere", [:])]) }
        expectRefused(&tree, .notFound) { _ = try $0.resolve(navigator: "v9") }
    }
}
