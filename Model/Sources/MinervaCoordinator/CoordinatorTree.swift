import MinervaJSON

/// One session's coordinator tree and the navigators that show it.
///
/// The tree always mirrors the screens: every operation either throws
/// ``NavigationError`` and changes nothing, or applies completely and returns the
/// events it caused. Every node that leaves the screen leaves the tree with its subtree.
public struct CoordinatorTree: Sendable {
    /// The app the session runs (see ``run(_:)``).
    public internal(set) var app: AppDescription
    /// The root flow the session shows (see ``AppDescription/launchFlow(for:)``).
    public internal(set) var flow: String
    /// How the base navigators are arranged: `split` when the flow's root is a split view (or a
    /// single-root session was made split).
    public internal(set) var layout: Layout
    /// The app coordinator's id (`n0`).
    public let rootID: NodeID
    /// Every node, by id: one record each, with what it holds (``Node/Holdings``).
    public internal(set) var nodes: [NodeID: Node]
    /// Every navigator, by id.
    public internal(set) var navigators: [NavigatorID: Navigator]
    /// Navigator ids in the order they were made (base navigators first).
    public internal(set) var navigatorOrder: [NavigatorID]
    /// The selected tab's id, in a tabs app.
    public internal(set) var selectedTab: String?
    /// The session's flags, which guards read (e.g. `signedIn`).
    public internal(set) var flags: Set<String> = []
    /// A guarded target waiting for its `otherwise` flow to finish, or a deep link waiting for
    /// its flow.
    public internal(set) var pending: Pending?
    /// Deep links that arrived while the focus was a screen that holds links (`holdsLinks`),
    /// oldest first: they apply, in order, once the focus is no longer such a screen
    /// (``releaseHeldLinks()``). At most ``maximumHeldLinks``.
    public internal(set) var heldLinks: [String] = []
    /// The horizontal size class the session's device reports (`regular` until it says).
    public internal(set) var sizeClass: SizeClass = .regular
    /// Which columns a split view shows at regular width (``setDisplayMode(_:)``); `automatic`
    /// when the client asked for none since its flow started, and always without a split view.
    public internal(set) var displayMode: SplitDisplayMode = .automatic
    /// The overlay flow shown over ``flow`` (a PIN lock), while its launch rule holds: its screens
    /// stand on navigator ``NavigatorID/overlay``, whose root is a child of the app coordinator,
    /// full screen at window level; the flow beneath keeps every node, list and UI state, takes no
    /// navigation change, and its deep links wait as ``pending`` until the overlay leaves.
    public internal(set) var overlay: String?
    var nextNodeNumber = 0
    /// Whether the tree was restored from a snapshot with screens the app no longer declares;
    /// only then can ``unknownScreens`` be non-empty (the operations accept declared screens only).
    var restoredUnknownScreens = false
    var nextNavigatorNumber = 1

    /// Checks that an app can run in a layout: `split` is for single-root apps whose root is
    /// one screen (an app of flows says in each flow's root whether it is split).
    /// - Throws: `invalid` for an app of flows or a tabs app with `split`.
    public static func check(layout: Layout, for app: AppDescription) throws(NavigationError) {
        guard layout == .split else { return }
        if app.declaresFlows {
            throw .invalid(
                "this app declares flows, whose roots say whether they are split; leave 'layout' out (flows: \(app.flowOrder.joined(separator: ", ")))")
        }
        if app.tabs != nil {
            throw .invalid("this app has tabs, which cannot be combined with layout 'split'")
        }
    }

    /// Starts a session's tree: the app coordinator and the launch flow's base for `flags`
    /// (its root screen, one root per tab, or a split view's primary).
    /// - Parameters:
    ///   - app: the app description (already validated).
    ///   - layout: for a single-root app, `stack` (one base navigator `v0`, or one per tab) or
    ///     `split` (`primary` and an empty `detail`); see ``check(layout:for:)``.
    ///   - flags: the session's flags, which choose its flow.
    public init(app: AppDescription, layout: Layout = .stack, flags: Set<String> = []) {
        precondition((try? Self.check(layout: layout, for: app)) != nil, "only a single-root app of one screen can be split")
        self.app = app
        self.layout = layout
        self.flags = flags
        flow = app.launchFlow(for: flags)
        rootID = NodeID(0)
        nextNodeNumber = 1
        nodes = [rootID: Node(id: rootID, screen: app.name, params: [:], presentation: Presentation(.app), navigator: nil, parent: nil, children: [])]
        navigators = [:]
        navigatorOrder = []
        buildBase()
        if let cover = app.launchOverlay(for: flags) { showOverlay(cover) }
    }

    /// Makes the base navigators of ``flow`` and their roots (the tree holds only the app
    /// coordinator); selects the first tab of a tab bar.
    mutating func buildBase() {
        let root = currentFlow.root
        if case .split = root { layout = .split } else if app.declaresFlows { layout = .stack }
        selectedTab = nil
        displayMode = .automatic
        switch (root, layout) {
        case (.tabs(let tabs, _), _):
            for tab in tabs {
                let id = Self.navigatorID(forTab: tab.id)
                addNavigator(Navigator(id: id, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .tab)))
                self[navigator: id].stack = [makeNode(screen: tab.screen, params: [:], presentation: Presentation(.tab), navigator: id, parent: rootID)]
            }
            selectedTab = tabs[0].id
        case (.screen(let screen), .stack):
            addNavigator(Navigator(id: .main, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .root)))
            self[navigator: .main].stack = [makeNode(screen: screen, params: [:], presentation: Presentation(.root), navigator: .main, parent: rootID)]
        case (.screen(let screen), .split):
            buildSplit(primary: screen, columns: 2)
        case (.split(let split), _):
            buildSplit(primary: split.primary, columns: split.columns)
        }
    }

    private mutating func buildSplit(primary screen: String, columns: Int) {
        addNavigator(Navigator(id: .primary, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .root)))
        if columns == 3 {
            addNavigator(
                Navigator(id: .supplementary, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .supplementary)))
        }
        addNavigator(Navigator(id: .detail, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .detail)))
        self[navigator: .primary].stack = [makeNode(screen: screen, params: [:], presentation: Presentation(.root), navigator: .primary, parent: rootID)]
    }

    /// The navigator id of a tab (`tab:home`).
    public static func navigatorID(forTab tab: String) -> NavigatorID {
        NavigatorID("tab:\(tab)")
    }

    /// The tabs of the session's flow, when its root is a tab bar.
    public var tabs: [AppDescription.Tab]? { app.flows[flow]?.root.tabs }

    /// The base navigators, in layout order: `v0`; the split view's columns; or one per tab.
    public var baseNavigators: [NavigatorID] {
        if let tabs { return tabs.map { Self.navigatorID(forTab: $0.id) } }
        return layout == .stack ? [.main] : columns
    }

    /// The split view of the session's flow (a single-root session made split has two columns).
    public var split: AppDescription.Split? {
        guard layout == .split else { return nil }
        switch app.flows[flow]?.root {
        case .split(let split): return split
        case .screen(let screen): return AppDescription.Split(columns: 2, primary: screen)
        case .tabs, nil: return nil
        }
    }

    /// A split view's columns in order (`primary`, `supplementary` with three, `detail`); none
    /// without a split view.
    public var columns: [NavigatorID] {
        guard layout == .split else { return [] }
        return navigators[.supplementary] != nil ? [.primary, .supplementary, .detail] : [.primary, .detail]
    }

    /// Whether the split view shows one column as one stack (compact width).
    public var collapsed: Bool { layout == .split && sizeClass == .compact }

    /// How the tab bar shows: as a sidebar at regular width (the size class is `regular` until
    /// the device reports one) when the flow's tabs adapt to one, else as a tab bar; `nil`
    /// without tabs. The tree and every tab's stack are the same in either form; it follows the
    /// size class, the app version and the flow.
    public var tabsForm: TabsForm? {
        guard case .tabs(_, let sidebar) = currentFlow.root, selectedTab != nil else { return nil }
        return sidebar && sizeClass == .regular ? .sidebar : .tabBar
    }

    /// The column a compact split view shows: the deepest that holds anything, or `primary`
    /// when the split view says so.
    public var compactTopColumn: NavigatorID {
        if split?.compactTop == .primary { return .primary }
        return columns.last { !self[navigator: $0].stack.isEmpty } ?? .primary
    }

    /// The columns a compact split view does not show at all: those after ``compactTopColumn``
    /// (none while regular, or without a split view).
    var hiddenColumns: ArraySlice<NavigatorID> {
        guard collapsed else { return [] }
        let columns = columns
        return columns[(columns.index(ofKnown: compactTopColumn) + 1)...]
    }

    /// What a compact split view shows as one stack: the columns' stacks concatenated up to the
    /// one it shows; empty without a split view.
    public var compactStack: [NodeID] {
        guard layout == .split else { return [] }
        let top = compactTopColumn
        var stack: [NodeID] = []
        for column in columns {
            stack += self[navigator: column].stack
            if column == top { break }
        }
        return stack
    }

    /// The top-most visible node: from the visible base navigator follow the presented
    /// navigators to the last one, and take the top of its stack.
    public var focus: NodeID {
        var navigatorID = visibleBaseNavigator
        while let next = self[navigator: navigatorID].presentedNavigator {
            navigatorID = next
        }
        return self[navigator: navigatorID].top
    }

    /// The base navigator on top: an overlay's; the selected tab's or `v0`; in a split view the
    /// column under a window-level presentation (it covers every column, compact or not), else
    /// the column a compact one shows, else the first column that presents something, else the
    /// deepest that holds anything.
    var visibleBaseNavigator: NavigatorID {
        overlay != nil ? .overlay : flowTopBase
    }

    /// ``visibleBaseNavigator`` of the flow, beneath an overlay if one is shown.
    var flowTopBase: NavigatorID {
        if let selectedTab { return Self.navigatorID(forTab: selectedTab) }
        switch layout {
        case .stack:
            return .main
        case .split:
            if let cover = flowWindowCovers.first { return base(of: cover) }
            if collapsed { return compactTopColumn }
            let columns = columns
            return columns.first { self[navigator: $0].presentedNavigator != nil } ?? columns.last { !self[navigator: $0].stack.isEmpty } ?? .primary
        }
    }

    /// Every node in on-screen order, bottom-most first: each navigator's stack from the
    /// bottom, then what it presents; the visible base navigator comes last (it is on top), and
    /// an overlay's after the flow's.
    /// - Complexity: O(n) in the number of nodes.
    public var nodesInScreenOrder: [NodeID] {
        var order: [NodeID] = []
        order.reserveCapacity(nodes.count)
        let top = flowTopBase
        var bases = baseNavigators.filter { $0 != top } + [top]
        if overlay != nil { bases.append(.overlay) }
        for base in bases {
            var navigatorID: NavigatorID? = base
            while let current = navigatorID, let navigator = navigators[current] {
                order.append(contentsOf: navigator.stack)
                navigatorID = navigator.presentedNavigator
            }
        }
        return order
    }

    // MARK: - Building blocks

    mutating func addNavigator(_ navigator: Navigator) {
        navigators[navigator.id] = navigator
        navigatorOrder.append(navigator.id)
    }

    mutating func makeNavigatorID() -> NavigatorID {
        defer { nextNavigatorNumber += 1 }
        return NavigatorID("v\(nextNavigatorNumber)")
    }

    /// Creates a node as a child of `parent`; the caller puts it on `navigator`'s stack.
    mutating func makeNode(
        screen: String, params: [String: JSONValue], presentation: Presentation, navigator: NavigatorID, parent: NodeID
    ) -> NodeID {
        let id = NodeID(nextNodeNumber)
        nextNodeNumber += 1
        nodes[id] = Node(
            id: id, screen: screen, params: params, presentation: presentation, navigator: navigator, parent: parent, children: [],
            title: app.screens[screen]?.title)
        self[node: parent].children.append(id)
        return id
    }
}

extension CoordinatorTree: Equatable {
    /// Two trees are equal when they hold the same nodes (what each holds included), navigators and counters.
    public static func == (lhs: CoordinatorTree, rhs: CoordinatorTree) -> Bool {
        lhs.layout == rhs.layout && lhs.nodes == rhs.nodes && lhs.navigators == rhs.navigators
            && lhs.navigatorOrder == rhs.navigatorOrder
            && lhs.nextNodeNumber == rhs.nextNodeNumber && lhs.nextNavigatorNumber == rhs.nextNavigatorNumber
            && lhs.selectedTab == rhs.selectedTab && lhs.flags == rhs.flags && lhs.pending == rhs.pending && lhs.flow == rhs.flow
            && lhs.sizeClass == rhs.sizeClass && lhs.displayMode == rhs.displayMode && lhs.heldLinks == rhs.heldLinks && lhs.overlay == rhs.overlay
    }
}
