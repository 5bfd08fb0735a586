@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// An overlay flow (a PIN lock): shown over the session's flow while its launch rule holds, the
/// flow beneath kept whole and untouchable, links waiting until it leaves.
@Suite struct OverlayTests {
    static let bank = AppDescription.testApp(named: "bank.json")

    /// A lock that leaves when its root finishes: `unlocked` cleared brings it, its completion sets it again.
    static let completing: AppDescription = {
        let text = #"""
            {
              "name": "vault",
              "flows": {
                "lock": {"root": {"screen": "unlock"}, "overlay": true, "completes": "unlocked"},
                "main": {"root": {"split": {"primary": {"screen": "list"}}}}
              },
              "launch": [{"unless": "unlocked", "flow": "lock"}, {"flow": "main"}],
              "screens": {"unlock": {}, "list": {}, "item": {"params": ["id"]}, "help": {"presentation": "present", "style": "formSheet"}},
              "routes": [{"path": "/items/:id", "flow": "main", "steps": [{"screen": "item", "params": {"id": ":id"}}]}]
            }
            """#
        return try! AppDescription.parse(Array(text.utf8), source: "vault")
    }()

    /// Runs an operation, checks that its block replays onto the tree before and the invariants
    /// hold, and returns the block.
    func block(_ tree: inout CoordinatorTree, _ operation: (inout CoordinatorTree) throws(NavigationError) -> [NavigationEvent]) throws -> [NavigationEvent] {
        let before = tree
        let events = try operation(&tree)
        let block = tree.changeBlock(since: before, operationEvents: events)
        var replayed = before
        replayed.replay(block, version: 2)
        #expect(replayed == tree)
        tree.checkInvariants()
        return block
    }

    /// A signed-in bank session in the middle of a transfer: its confirm step, with UI state.
    func midTransfer() throws -> CoordinatorTree {
        var tree = CoordinatorTree(app: Self.bank, flags: ["onboarded", "verified", "signedIn"])
        _ = try tree.push(screen: "account", params: ["id": "1"], from: nil)
        _ = try tree.present(screen: "transfer", params: ["to": "savings"], from: nil, style: nil, embedInNavigation: nil)
        _ = try tree.push(screen: "confirmTransfer", params: [:], from: nil)
        _ = try tree.setUI(of: tree.focus, to: ["amount": "120"])
        return tree
    }

    @Test func aLockComesOverTheTransferAndItsEndUncoversItWhole() throws {
        var tree = try midTransfer()
        let beneath = tree
        let locking = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: ["locked"], clear: []) }
        let root = tree[navigator: .overlay].stack[0]
        #expect(tree.overlay == "lock" && tree.flow == "main" && tree.focus == root && tree[node: root].parent == tree.rootID)
        #expect(locking.count == 3)
        #expect(locking[0] == .overlayChanged("lock") && locking[2] == .flagsChanged(["locked", "onboarded", "signedIn", "verified"]))
        guard case .added(let added) = locking[1] else {
            Issue.record("no added event for the lock: \(locking)")
            return
        }
        #expect(added.screen == "unlock" && added.navigator == .overlay && added.presentation.kind == .overlay && added.presentedBy == nil)
        #expect(tree.nodesInScreenOrder.last == root)
        // Beneath it nothing changed: every node, what it holds, every navigator.
        #expect(beneath.nodes.allSatisfy { tree.nodes[$0.key] == $0.value || $0.key == tree.rootID })
        #expect(beneath.navigators.allSatisfy { tree.navigators[$0.key] == $0.value })
        let unlocking = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["locked"]) }
        #expect(unlocking.count == 3)
        #expect(unlocking[0] == .removed(RemovedNode(node: root, screen: "unlock", reason: .flowChanged, navigator: .overlay)))
        #expect(unlocking[1] == .overlayChanged(nil))
        #expect(tree.overlay == nil && tree.nodes == beneath.nodes && tree.navigators == beneath.navigators && tree.focus == beneath.focus)
        #expect(tree[node: tree.focus].ui == ["amount": "120"])
    }

    @Test func nothingBeneathTheLockChangesButItsOwnNavigatorsDo() throws {
        var tree = try midTransfer()
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        let locked = tree
        let account = try #require(tree.nodes.values.first { $0.screen == "account" }?.id)
        let sheet = try #require(tree.nodes.values.first { $0.screen == "transfer" }?.id)
        let refusals: [(String, (inout CoordinatorTree) throws(NavigationError) -> Void)] = [
            ("push", { tree throws(NavigationError) in _ = try tree.push(screen: "fund", params: ["id": "1"], from: account) }),
            ("present", { tree throws(NavigationError) in _ = try tree.present(screen: "share", params: [:], from: account) }),
            ("navigate", { tree throws(NavigationError) in _ = try tree.navigate(screen: "fund", params: ["id": "1"], from: account) }),
            ("pop", { tree throws(NavigationError) in _ = try tree.pop(navigator: CoordinatorTree.navigatorID(forTab: "accounts"), target: .top) }),
            ("dismiss", { tree throws(NavigationError) in _ = try tree.dismiss(node: sheet) }),
            ("finish", { tree throws(NavigationError) in _ = try tree.finish(node: sheet, status: .cancelled) }),
            ("set-root", { tree throws(NavigationError) in
                _ = try tree.setRoot(navigator: CoordinatorTree.navigatorID(forTab: "cards"), stack: [("cards", [:])])
            }),
            ("select-tab", { tree throws(NavigationError) in _ = try tree.selectTab("cards", dismiss: true) }),
            ("presentation", { tree throws(NavigationError) in _ = try tree.changePresentation(of: sheet, selected: nil, dismissible: true) }),
        ]
        for (name, refusal) in refusals {
            var attempt = tree
            let error = #expect(throws: NavigationError.self, "\(name) beneath the lock") { try refusal(&attempt) }
            #expect(error?.code == "overlaid" && error?.category == .conflict, "\(name): \(error?.description ?? "")")
            #expect(attempt == locked, "\(name) changed the tree")
        }
        // The lock's root leaves only as its launch rule says: no dismissal, no finish without
        // `completes`, no set-root that leaves it out.
        let root = tree[navigator: .overlay].stack[0]
        #expect(throws: NavigationError.self) { try tree.dismiss(node: root) }
        #expect(throws: NavigationError.self) { try tree.dismiss(node: nil) }
        #expect(throws: NavigationError.self) { try tree.finish(node: root, status: .success) }
        #expect(throws: NavigationError.self) { try tree.setRoot(navigator: .overlay, stack: [("forgotPin", [:])]) }
        #expect(tree == locked)
        // Its own screens come and go as any: "Forgot PIN" presented from it, then dismissed.
        _ = try block(&tree) { tree throws(NavigationError) in try tree.present(screen: "forgotPin", params: [:], from: nil).events }
        #expect(tree[node: tree.focus].screen == "forgotPin" && tree.isInOverlay(tree[node: tree.focus].stackNavigator))
        _ = try block(&tree) { tree throws(NavigationError) in try tree.dismiss(node: nil) }
        #expect(tree.nodes == locked.nodes && tree.navigators == locked.navigators && tree.focus == locked.focus)
    }

    @Test func linksWaitUnderTheLockAndApplyWhenItLeaves() throws {
        var tree = CoordinatorTree(app: Self.bank, flags: ["onboarded", "verified", "signedIn", "locked"])
        #expect(tree.overlay == "lock")
        let waiting = try block(&tree) { tree throws(NavigationError) in try tree.followLink("/accounts/7") }
        #expect(waiting == [.pendingChanged(.link(PendingLink(url: "/accounts/7", flow: "main")))])
        _ = try tree.followLink("/accounts/8")
        #expect(tree.pending?.link?.url == "/accounts/8" && tree.nodes.count == 6)
        let unlocked = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["locked"]) }
        #expect(tree.overlay == nil && tree.pending == nil && tree[node: tree.focus].params["id"] == "8")
        #expect(unlocked.contains(.pendingChanged(nil)))
    }

    @Test func aLinkThatArrivesUnderTheLockOnAConfirmStepIsHeldThereOnceItLeaves() throws {
        var tree = try midTransfer()
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        _ = try tree.followLink("/pay/7?amount=5")
        _ = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["locked"]) }
        #expect(tree.heldLinks == ["/pay/7?amount=5"] && tree.pending == nil && tree[node: tree.focus].screen == "confirmTransfer")
    }

    @Test func heldLinksStayHeldUnderTheLock() throws {
        var tree = try midTransfer()
        _ = try tree.followLink("/accounts/2")
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        #expect(tree.releaseHeldLinks().isEmpty && tree.heldLinks == ["/accounts/2"] && !tree.focusHoldsLinks)
    }

    @Test func signingOutUnderTheLockLeavesForSignInAndDropsTheLinks() throws {
        var tree = try midTransfer()
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        _ = try tree.followLink("/accounts/7")
        let block = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["signedIn"]) }
        #expect(tree.flow == "signIn" && tree.overlay == nil && tree.pending == nil && tree.navigators[.overlay] == nil)
        #expect(block.contains(.overlayChanged(nil)))
    }

    @Test func aCompletingLockLeavesWhenItsRootFinishesAndComesBackWhenItsFlagIsCleared() throws {
        var tree = CoordinatorTree(app: Self.completing)
        #expect(tree.overlay == "lock" && tree.flow == "main" && tree.layout == .split)
        _ = try tree.followLink("/items/3")
        let root = tree[navigator: .overlay].stack[0]
        #expect(throws: NavigationError.self) { try tree.finish(node: root, status: .cancelled) }
        let finished = try block(&tree) { tree throws(NavigationError) in try tree.finish(node: root, status: .success) }
        #expect(tree.overlay == nil && tree.flags == ["unlocked"] && tree[node: tree.focus].params["id"] == "3")
        guard case .finished(let result) = finished.first(where: { if case .finished = $0 { true } else { false } }) else {
            Issue.record("no finished event: \(finished)")
            return
        }
        #expect(result.node == root && !result.held)
        // Backgrounding clears the flag: the lock comes back, the detail kept beneath it.
        let beneath = tree
        _ = try block(&tree) { tree throws(NavigationError) in try tree.updateFlags(set: [], clear: ["unlocked"]) }
        #expect(tree.overlay == "lock" && tree.nodes.count == beneath.nodes.count + 1)
        // A display mode and a size class are the device's: they change under the lock.
        _ = try block(&tree) { tree throws(NavigationError) in try tree.setDisplayMode(.secondaryOnly) }
        #expect(tree.displayMode == .secondaryOnly && tree.focus == tree[navigator: .overlay].stack[0])
    }

    @Test func aRestoreCannotCrossTheLock() throws {
        var tree = try midTransfer()
        let open = tree
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        let locked = tree
        let error = #expect(throws: NavigationError.self) { try tree.restore(open) }
        #expect(error?.description.contains("overlay") == true)
        var opened = open
        #expect(throws: NavigationError.self) { try opened.restore(tree) }
        // Within one showing of the lock a restore goes back; across an unlock and a lock again it does not.
        _ = try tree.present(screen: "forgotPin", params: [:], from: nil)
        _ = try tree.restore(locked)
        #expect(tree.nodes.count == locked.nodes.count)
        _ = try tree.updateFlags(set: [], clear: ["locked"])
        _ = try tree.pop(navigator: nil, target: .top)
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        let relocked = tree
        #expect(throws: NavigationError.self) { try tree.restore(locked) }
        #expect(tree == relocked)
    }

    @Test func aGuardsTargetBeneathTheLockKeepsItsSlot() throws {
        var tree = CoordinatorTree(app: Self.bank, flags: ["onboarded", "verified", "signedIn"])
        _ = try tree.selectTab("invest")
        #expect(tree.pending?.guarded != nil && tree[node: tree.focus].screen == "investorQuiz")
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        let locked = tree
        let error = #expect(throws: NavigationError.self) { try tree.navigate(screen: "invest", params: [:], from: nil) }
        #expect(error?.code == "overlaid" && tree == locked)
        #expect(throws: NavigationError.self) { try tree.followLink("/accounts/7") }
        #expect(tree == locked)
    }

    @Test func aGuardsFlagThatBringsTheLockResumesTheTargetBeneathIt() throws {
        let text = #"""
            {
              "name": "club",
              "flows": {"lock": {"root": {"screen": "unlock"}, "overlay": true}, "main": {"root": {"screen": "home"}}},
              "launch": [{"if": "member", "unless": "unlocked", "flow": "lock"}, {"flow": "main"}],
              "screens": {"unlock": {}, "home": {}, "lounge": {"requires": "member", "otherwise": {"screen": "join"}},
                          "join": {"presentation": "present", "embedInNavigation": true}}
            }
            """#
        var tree = CoordinatorTree(app: try AppDescription.parse(Array(text.utf8), source: "club"))
        _ = try tree.push(screen: "lounge", params: [:], from: nil)
        let join = tree.focus
        _ = try block(&tree) { tree throws(NavigationError) in try tree.finish(node: join, status: .success) }
        #expect(tree.overlay == "lock" && tree.pending == nil)
        #expect(tree.nodes.values.contains { $0.screen == "lounge" } && tree[node: tree.focus].screen == "unlock")
    }

    @Test func theLockOutlivesASnapshot() throws {
        var tree = try midTransfer()
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        _ = try tree.followLink("/accounts/7")
        #expect(try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: Self.bank) == tree)
    }

    @Test(arguments: [
        (#""lock": {"root": {"tabs": [{"id": "a", "screen": "s"}]}, "overlay": true}"#, #"[{"if": "x", "flow": "lock"}, {"flow": "main"}]"#, "one screen"),
        (#""lock": {"root": {"screen": "s"}, "overlay": true}"#, #"[{"if": "x", "flow": "main"}, {"flow": "lock"}]"#, "needs a flow beneath"),
    ])
    func anOverlayIsOneScreenOverAFlow(flow: String, launch: String, message: String) {
        let text = #"{"name": "a", "flows": {"main": {"root": {"screen": "s"}}, \#(flow)}, "launch": \#(launch), "screens": {"s": {}}}"#
        let error = #expect(throws: AppDescriptionError.self) { try AppDescription.parse(Array(text.utf8), source: "a") }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test func routesAreCheckedInTheirFlowWithNoOverlayOverIt() {
        #expect(Self.bank.unshowableRoutes().isEmpty && Self.completing.unshowableRoutes().isEmpty)
    }

    @Test func noRouteOpensInAnOverlay() {
        let text = #"""
            {"name": "a", "flows": {"main": {"root": {"screen": "s"}}, "lock": {"root": {"screen": "s"}, "overlay": true}},
             "launch": [{"if": "x", "flow": "lock"}, {"flow": "main"}], "screens": {"s": {}},
             "routes": [{"path": "/s", "flow": "lock", "steps": [{"screen": "s"}]}]}
            """#
        let error = #expect(throws: AppDescriptionError.self) { try AppDescription.parse(Array(text.utf8), source: "a") }
        #expect(error?.description.contains("is an overlay") == true)
    }
}
