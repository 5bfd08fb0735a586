@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// The states of the flows chapter that were wrong, in the model: a route builds one tree in
/// both size classes (every route of every test app, from the flow's base and after every other
/// route), a pending tab switch is stored and resumed, and a restore says again whether a node it
/// keeps could be swiped away.
@Suite struct FlowStateTests {
    /// Every app the live tests serve, and the built-in demo.
    static let apps: [(String, AppDescription)] = AppDescription.testAppNames.map { ($0, AppDescription.testApp(named: $0)) } + [("demo", .demo)]

    /// Flags under which `app` launches `flow`, if any subset of the flags its rules read does.
    static func flags(launching flow: String, in app: AppDescription) -> Set<String>? {
        let read = Array(Set(app.launch.flatMap { [$0.ifFlag, $0.unless].compactMap(\.self) })).sorted()
        for mask in 0..<(1 << read.count) {
            let flags = Set(read.indices.filter { mask & (1 << $0) != 0 }.map { read[$0] })
            if app.launchFlow(for: flags) == flow { return flags }
        }
        return nil
    }

    /// A route's path with its parameters filled.
    static func link(_ route: AppDescription.Route, value: String) -> String {
        "/" + route.segments.map { $0.hasPrefix(":") ? value : $0 }.joined(separator: "/")
    }

    /// What a device draws of a tree, ids and counters aside: each base navigator's stack as
    /// screens and params, with what it presents (style and embedding), the tab and what waits.
    static func shape(_ tree: CoordinatorTree) -> String {
        func describe(_ id: NavigatorID) -> String {
            let navigator = tree.navigators[id]!
            let stack = navigator.stack.map { node in
                let shown = tree.nodes[node]!
                return "\(shown.screen)\(shown.params.keys.sorted().map { "\($0)=\(shown.params[$0]!)" })"
            }
            let above = navigator.presentedNavigator.map { presented in
                " ⇡\(tree.nodes[tree.navigators[presented]!.stack[0]]!.presentation.style?.rawValue ?? "-")(\(describe(presented)))"
            }
            return stack.joined(separator: " > ") + (above ?? "")
        }
        let bases = tree.baseNavigators.map { "\($0): \(describe($0))" }.joined(separator: "; ")
        return "\(tree.flow) \(bases) tab \(tree.selectedTab ?? "-") pending \(tree.pending.map { "\($0.link?.url ?? "target")" } ?? "-")"
    }

    @Test(arguments: apps.map(\.0))
    func everyRouteBuildsOneTreeInBothSizeClasses(app name: String) throws {
        let app = Self.apps.first { $0.0 == name }!.1
        var compared = 0
        for route in app.routes {
            guard let flags = Self.flags(launching: route.flow, in: app) else { continue }
            let base = CoordinatorTree(app: app, flags: flags)
            // From the flow's base, and after each route of the same flow (another link already shown).
            let starts = [nil] + app.routes.filter { $0.flow == route.flow }
            for start in starts {
                var regular = base
                if let start { _ = try? regular.deepLink(Self.link(start, value: "1")) }
                var compact = regular
                compact.setSizeClass(.compact)
                let url = Self.link(route, value: "2")
                let built = Result { () throws(NavigationError) in try regular.deepLink(url) }
                let builtCompact = Result { () throws(NavigationError) in try compact.deepLink(url) }
                #expect((try? built.get()) != nil || (try? builtCompact.get()) == nil, "\(name) \(url): refused only at regular width")
                guard (try? built.get()) != nil else { continue }
                #expect((try? builtCompact.get()) != nil, "\(name) \(url): refused only when compact")
                regular.setSizeClass(.compact)
                #expect(Self.shape(compact) == Self.shape(regular), "\(name) \(url) after \(start?.path ?? "the base")")
                compact.checkInvariants()
                compared += 1
            }
        }
        #expect(compared >= app.routes.count / 2, "\(name): too few routes could be followed")
    }

    @Test func theNewsReadersLinkPutsTheArticleInDetailWhenCompact() throws {
        var tree = CoordinatorTree(app: .testApp(named: "news.json"))
        tree.setSizeClass(.compact)
        let before = tree
        let events = try tree.deepLink("/sections/world/articles/7").events
        #expect(tree.navigators[.supplementary]!.stack.map { tree.nodes[$0]!.screen } == ["section"])
        #expect(tree.navigators[.detail]!.stack.map { tree.nodes[$0]!.screen } == ["article"])
        #expect(tree.compactStack == tree.navigators[.primary]!.stack && tree.focus == tree.navigators[.primary]!.stack[0])
        // Nothing made and dropped: the block adds two nodes and removes none.
        let block = tree.changeBlock(since: before, operationEvents: events)
        #expect(block.count == 2 && tree.nodes.count == 4)
    }

    @Test func aPendingTabSwitchIsStoredAndResumedOnSuccess() throws {
        var tree = CoordinatorTree(app: .testApp(named: "bank.json"), flags: ["onboarded", "verified", "signedIn"])
        let events = try tree.selectTab("invest")
        #expect(tree.selectedTab == "accounts" && events.isEmpty)
        let waiting = try #require(tree.pending?.guarded)
        #expect(waiting.operation == .selectTab && waiting.navigator == CoordinatorTree.navigatorID(forTab: "invest"))
        let restored = try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: tree.app)
        #expect(restored == tree)
        var resumed = restored
        _ = try resumed.finish(node: waiting.guardNode, status: .success)
        #expect(resumed.selectedTab == "invest" && resumed.flags.contains("investor") && resumed.pending == nil)
        // Selecting it again is plain: the flag holds now.
        _ = try resumed.selectTab("accounts")
        _ = try resumed.selectTab("invest")
        #expect(resumed.selectedTab == "invest" && resumed.pending == nil)
        resumed.checkInvariants()
    }

    @Test func aRestoreSaysAgainWhetherAKeptNodeCouldBeSwipedAway() throws {
        var tree = CoordinatorTree(app: .testApp(named: "food.json"))
        let cart = try tree.navigate(screen: "cart").node
        let then = tree
        _ = try tree.changePresentation(of: cart, selected: "large", dismissible: false)
        #expect(throws: NavigationError.self) { try tree.dismiss(node: cart, interactive: true) }
        let before = tree
        let events = try tree.restore(then)
        #expect(events.contains(.presentationChanged(node: cart, selected: "medium", dismissible: true)))
        var replayed = before
        replayed.replay(tree.changeBlock(since: before, operationEvents: events), version: 9)
        #expect(replayed.nodes == tree.nodes)
        _ = try tree.dismiss(node: cart, interactive: true)
    }
}
