import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
@testable import MinervaSessions
import Testing
import TestSupport

/// Random operation sequences on random app descriptions, through the core, with and without
/// a store: the change log tells every change, and only changes.
@Suite struct CorePropertyTests {
    /// A random command on the session as it is (valid and invalid ones); the same for the same
    /// seed in every process (the nodes are taken in order, not in a dictionary's hashed order).
    static func command(for state: SessionState, screens: [String], _ random: inout SeededGenerator) -> SessionCommand {
        let nodes = state.tree.nodes.keys.sorted().map(\.description) + ["n999"]
        let navigators = state.tree.navigatorOrder.map(\.rawValue) + ["v99"]
        let node = Bool.random(using: &random) ? nil : nodes.randomElement(using: &random)
        let screen = screens.randomElement(using: &random)!
        let params: [String: JSONValue] = Bool.random(using: &random) ? ["id": .string("\(Int.random(in: 0..<5, using: &random))")] : [:]
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1: return .push(from: node, screen: screen, params: params)
        case 2: return .present(from: node, screen: screen, params: params, style: nil, embedInNavigation: Bool.random(using: &random))
        case 3, 4: return .navigate(from: node, screen: screen, params: params)
        case 5: return .dismiss(node: node)
        case 6: return .pop(navigator: Bool.random(using: &random) ? nil : navigators.randomElement(using: &random), to: nil, toRoot: Bool.random(using: &random))
        case 7: return .setRoot(navigator: nil, stack: [.screen(screen, params: params)])
        case 8: return .deepLink(url: ["/secret", "/r0", "/r1", "/nowhere"].randomElement(using: &random)!)
        case 9: return .finish(node: node ?? state.tree.focus.description, status: Bool.random(using: &random) ? "success" : "cancelled", value: nil)
        case 10: return .selectTab(["a", "b", "c"].randomElement(using: &random)!)
        default:
            if Bool.random(using: &random) {
                let flag = ["signedIn", "locked", "unlocked"].randomElement(using: &random)!
                return .flags(set: Bool.random(using: &random) ? [flag] : [], clear: Bool.random(using: &random) ? [flag] : [])
            }
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: return .sizeClass(Bool.random(using: &random) ? "compact" : "regular")
            case 2: return .displayMode(SplitDisplayMode.allCases.map(\.rawValue).randomElement(using: &random)!)
            default: break
            }
            let target = node ?? state.tree.focus.description
            if Bool.random(using: &random) {
                let cell = Cell(id: "i\(Int.random(in: 0..<5, using: &random))", kind: "row", content: .int(Int.random(in: 0..<3, using: &random)))
                let before = Bool.random(using: &random) ? "i\(Int.random(in: 0..<5, using: &random))" : nil
                return .patchList(
                    node: target,
                    patch: ListPatch(
                        delete: Bool.random(using: &random) ? ["i\(Int.random(in: 0..<5, using: &random))"] : [],
                        upsert: [ListPatch.Upsert(cell: cell, placement: ListPatch.Placement(section: before == nil ? "s" : nil, before: before))]))
            }
            let items = (0..<Int.random(in: 0..<4, using: &random)).map { Cell(id: "i\($0)", kind: "row", content: .int(Int.random(in: 0..<3, using: &random))) }
            return .putList(node: target, sections: [ListSection(id: "s", items: items)])
        }
    }

    /// The base navigator a navigator hangs from.
    static func base(of navigator: NavigatorID, in tree: CoordinatorTree) -> NavigatorID {
        var current = navigator
        while let parent = tree.navigators[current]?.parent { current = parent }
        return current
    }

    /// The flow beneath an overlay: each of its navigators' stacks, and each of its nodes as shown.
    static func beneath(_ tree: CoordinatorTree) -> [String] {
        let navigators = tree.navigatorOrder.filter { base(of: $0, in: tree) != .overlay }
        return navigators.flatMap { id in
            ["\(id): \(tree[navigator: id].stack)"] + tree[navigator: id].stack.map { node in
                let shown = tree[node: node]
                return "\(node) \(shown.screen) \(shown.params) \(String(describing: shown.parent)) \(shown.presentation)"
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64], [false, true])
    func theChangeLogTellsEveryChangeAndOnlyChanges(seed: UInt64, durable: Bool) throws {
        var random = SeededGenerator(state: seed)
        let (app, screens) = RandomApps.make(&random)
        let storage = durable ? try FaultyStorage() : nil
        let harness = try CoreHarness(app: app, storage: storage)
        let (session, token) = try harness.create()
        let recorder = Recorder()
        harness.core.observe(session) { _, _ in recorder }
        /// The live nodes after each version, to replay from.
        var liveAt: [Int: Set<NodeID>] = [1: Set(try harness.state(of: session).tree.nodes.keys)]
        var applied = 0
        var lastReported = "regular"
        var heldLinks = 0
        var overlays = 0
        for round in 0..<300 {
            if let storage, round % 37 == 36 {
                // A new process rebuilds the session from its head and the events after it, however
                // far the head lags.
                let restarted = try CoreHarness(app: app, storage: storage)
                let rereadSession = try restarted.core.session(session.id, token: token)
                let reread = try restarted.state(of: rereadSession)
                let live = try harness.state(of: session)
                #expect(reread.tree == live.tree && reread.version == live.version && reread.lastEvent == live.lastEvent)
                #expect(restarted.storedHead(of: rereadSession) == harness.storedHead(of: session))
                #expect(reread.structuralVersion == live.structuralVersion)
            }
            let before = try harness.state(of: session)
            let blocksBefore = recorder.received.count
            let command = Self.command(for: before, screens: screens, &random)
            let outcome = harness.run(command, on: session)
            let after = try harness.state(of: session)
            // The state document shows tabs that adapt as a sidebar exactly while the size class last
            // reported (regular before any) is regular; other tabs never.
            if case .sizeClass(let reported) = command, case .success = outcome { lastReported = reported }
            if case .tabs(_, let sidebar) = app.root {
                let form = sidebar && lastReported == "regular" ? "sidebar" : "tabBar"
                #expect(ReplayDocumentTests.document(of: after).contains(#""form":"\#(form)""#), "tabs.form after \(command)")
            }
            // A display mode is a split view's, and one of two columns beside detail needs three columns.
            if case .split(let split) = app.root {
                #expect(!after.tree.displayMode.needsThreeColumns || split.columns == 3, "\(after.tree.displayMode) in \(split.columns) columns")
                #expect(ReplayDocumentTests.document(of: after).contains(#""displayMode":"\#(after.tree.displayMode.rawValue)""#))
            } else {
                #expect(after.tree.displayMode == .automatic)
            }
            // The overlay is the one the launch rules choose; under it the focus is its own, and
            // nothing beneath moves but by the device (a collapse dismissing a hidden column's sheet).
            #expect(after.tree.overlay == app.launchOverlay(for: after.tree.flags))
            if after.tree.overlay != nil {
                #expect(Self.base(of: after.tree[node: after.tree.focus].navigator!, in: after.tree) == .overlay)
                if before.tree.overlay != nil, after.tree.flow == before.tree.flow, !command.changesTheDevice {
                    #expect(Self.beneath(after.tree) == Self.beneath(before.tree), "\(command) changed the flow beneath the overlay")
                }
            }
            if after.tree.overlay != before.tree.overlay { overlays += 1 }
            // Links wait only while the focus holds them (or beneath an overlay), never more than the bound.
            #expect(
                after.tree.heldLinks.isEmpty || after.tree.focusHoldsLinks || after.tree.overlay != nil,
                "links held after \(command) while the focus holds none")
            #expect(after.tree.heldLinks.count <= CoordinatorTree.maximumHeldLinks)
            if !after.tree.heldLinks.isEmpty { heldLinks += 1 }
            switch outcome {
            case .failure:
                #expect(after.version == before.version && after.lastEvent == before.lastEvent, "a refused \(command) changed the session")
                #expect(after.tree == before.tree)
                #expect(recorder.received.count == blocksBefore, "a refused \(command) published events")
            case .success(let result) where result.events.isEmpty:
                #expect(after.version == before.version && after.lastEvent == before.lastEvent, "a no-op \(command) moved the version")
                #expect(after.tree == before.tree)
                #expect(recorder.received.count == blocksBefore)
            case .success(let result):
                applied += 1
                let block = Array(result.events)
                #expect(after.version == before.version + 1)
                #expect(block.map(\.seq) == Array(before.lastEvent + 1...after.lastEvent), "event numbers have a gap")
                #expect(block.allSatisfy { $0.version == after.version })
                #expect(block.map(\.isFinal) == Array(repeating: false, count: block.count - 1) + [true])
                #expect(recorder.received.last == block, "the published block is not the mutation's")
                liveAt[after.version] = Set(after.tree.nodes.keys)
            }
        }
        #expect(applied > 50)
        // An app with a screen that holds links held some on the way (seeds 3, 6 and 7 have one).
        if app.screens.values.contains(where: \.holdsLinks) { #expect(heldLinks > 0) }
        // An app with a lock was locked on the way.
        if app.flows["lock"] != nil { #expect(overlays > 0) }
        // Replaying added and removed from any earlier version gives exactly the live nodes now.
        let now = try harness.state(of: session)
        let events = recorder.received.flatMap { $0 }
        for (version, live) in liveAt {
            var replayed = live
            for event in events where event.version > version {
                switch event.change {
                case .navigation(.added(let added)): replayed.insert(added.node)
                case .navigation(.removed(let removed)): replayed.remove(removed.node)
                default: break
                }
            }
            #expect(replayed == Set(now.tree.nodes.keys), "replaying from version \(version) does not give the live nodes")
        }
        if let storage {
            // A new process reads the same session back: tree, version, log and lists.
            let restarted = try CoreHarness(app: app, storage: storage)
            let reread = try restarted.state(of: try restarted.core.session(session.id, token: token))
            #expect(reread.tree == now.tree && reread.version == now.version && reread.lastEvent == now.lastEvent)
            let rereadLog = restarted.log(of: try restarted.core.session(session.id, token: token)).events
            #expect(Array(rereadLog) == Array(harness.log(of: session).events.suffix(rereadLog.count)))
            #expect(reread.lists.mapValues(\.version) == now.lists.mapValues(\.version))
            let page = try restarted.core.eventPage(of: try restarted.core.session(session.id, token: token), after: 0)
            #expect(page.events == Array(events.suffix(page.events.count)) && page.events.count == min(events.count, 1000))
        }
    }
}

extension SessionCommand {
    /// Whether the command reports what the device did (a size class), which may dismiss what a
    /// collapsed split view hides, beneath an overlay too.
    fileprivate var changesTheDevice: Bool {
        if case .sizeClass = self { true } else { false }
    }
}
