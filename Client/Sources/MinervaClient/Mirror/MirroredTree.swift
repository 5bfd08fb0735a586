/// A state document taken apart by node, so that a block of events applies to it as the server
/// applied it: each node on its own, its children by id.
///
/// What it cannot know from the events alone it reports, and ``SessionMirror`` fetches exactly
/// that: a list's cells (``listsToFetch``), or the whole state when the block moved the session
/// to another app version or holds an event type this client does not know (``Unmirrorable``).
struct MirroredTree {
    /// The state the tree was taken from, kept for its other members.
    private var state: SessionState
    /// Every node, its `children` left empty.
    private var nodes: [String: Node] = [:]
    /// Each node's children ids, oldest first.
    private var children: [String: [String]] = [:]
    /// Each node's parent (none for the app coordinator).
    private var parents: [String: String] = [:]
    /// The session's size class, also while the state document does not show it.
    private var sizeClass: SizeClass
    /// The lists whose cells the block changed: read them after applying it.
    private(set) var listsToFetch: [Logged<ListChanged>] = []

    /// A block the mirror cannot apply from its events: read the state instead.
    struct Unmirrorable: Error {}

    init(_ state: SessionState) {
        self.state = state
        sizeClass = state.sizeClass ?? .regular
        take(apart: state.root, parent: nil)
    }

    private mutating func take(apart node: Node, parent: String?) {
        var bare = node
        bare.children = []
        nodes[node.id] = bare
        children[node.id] = node.children.map(\.id)
        if let parent { parents[node.id] = parent }
        for child in node.children { take(apart: child, parent: node.id) }
    }

    /// Applies one change's block of events, in order, as the server's replay does.
    /// - Parameters:
    ///   - block: the events of one version, the last one final.
    ///   - highestNode: the highest node number the mirror has seen: a node that comes back
    ///     below it came back by a restore.
    ///   - compactTop: what a compact split view shows, from the app description: `primary`, or
    ///     nil for the deepest column that holds anything.
    /// - Throws: ``Unmirrorable`` when the events do not carry what the state shows: a restore
    ///   puts nodes back in the places they had, which its `added` events do not say.
    mutating func apply(_ block: [Event], highestNode: Int, compactTop: String?) throws(Unmirrorable) {
        guard let last = block.last, last.isFinal, let focus = last.focus else { throw Unmirrorable() }
        for event in block {
            switch event {
            case .removed(let removed) where removed.reason == .restore: throw Unmirrorable()
            case .added(let added) where Self.number(of: added.node) <= highestNode: throw Unmirrorable()
            default: continue
            }
        }
        let owners = stackOwners(in: block)
        var added: Set<String> = []
        var finished: [Logged<FlowFinished>] = []
        for event in block {
            switch event {
            case .added(let event):
                try insert(event.change)
                added.insert(event.node)
            case .removed(let event): remove(event.node)
            case .finished(let event): finished.append(event)
            case .flowChanged(let event): start(event.change)
            case .stackChanged(let event):
                guard let (owner, rootPresentation) = owners[event.navigator] else { throw Unmirrorable() }
                try restack(event.navigator, event.stack, owner: owner, rootPresentation: rootPresentation, added: added)
            case .paramsChanged(let event): nodes[event.node]?.params = event.params
            case .tabSelected(let event): selectTab(event.tab)
            case .sizeClassChanged(let event): sizeClass = event.horizontal
            case .presentationChanged(let event):
                if let selected = event.selected { nodes[event.node]?.sheet?.selected = selected }
                if let dismissible = event.dismissible { nodes[event.node]?.dismissible = dismissible }
            case .flagsChanged(let event): state.flags = event.flags
            case .pendingChanged(let event): state.pending = event.pending
            case .uiChanged(let event): nodes[event.node]?.ui = event.ui.isEmpty ? nil : event.ui
            case .resultConsumed(let event):
                nodes[event.node]?.results?[event.screen] = nil
                if nodes[event.node]?.results?.isEmpty == true { nodes[event.node]?.results = nil }
            case .listChanged(let event): listsToFetch.append(event)
            case .appChanged, .unknown: throw Unmirrorable()
            }
        }
        for event in finished { keepResult(of: event) }
        linkPresentedNavigators()
        if let unknown = state.unknownScreens {
            let shown = Set(nodes.values.map(\.screen))
            let stillShown = unknown.filter(shown.contains)
            state.unknownScreens = stillShown.isEmpty ? nil : stillShown
        }
        state.version = last.version
        state.lastEvent = last.seq
        state.focus = focus
        showSizeClass(compactTop: compactTop)
    }

    /// The number of a node id (`n12` → 12).
    static func number(of node: String) -> Int {
        Int(node.dropFirst()) ?? 0
    }

    /// The highest node number a state shows.
    static func highestNode(in state: SessionState) -> Int {
        func highest(_ node: Node) -> Int {
            node.children.reduce(number(of: node.id)) { max($0, highest($1)) }
        }
        return highest(state.root)
    }

    /// The state document the tree shows now.
    var mirroredState: SessionState {
        var state = state
        state.root = assembled(state.root.id)
        return state
    }

    /// Puts a node's list (read after the block) in place.
    mutating func setList(_ list: NodeList, of node: String) {
        nodes[node]?.list = list
    }

    private func assembled(_ id: String) -> Node {
        var node = nodes[id]!
        node.children = children[id, default: []].compactMap { nodes[$0] != nil ? assembled($0) : nil }
        return node
    }

    // MARK: - The events

    /// Where a set-root's stack hangs and how its root shows: from the app coordinator with the
    /// base navigator's kind, or from the presenting node as the presented root was shown; read
    /// before the block removes the stack's old root.
    private func stackOwners(in block: [Event]) -> [String: (owner: String, rootPresentation: Presentation)] {
        var owners: [String: (owner: String, rootPresentation: Presentation)] = [:]
        for case .stackChanged(let event) in block {
            guard let navigator = state.navigators.first(where: { $0.id == event.navigator }) else { continue }
            if navigator.parent == nil {
                owners[event.navigator] = (state.root.id, Self.baseRootPresentation(of: navigator.id))
            } else if let root = navigator.stack.first, let owner = parents[root], let presentation = nodes[root]?.presentation {
                owners[event.navigator] = (owner, presentation)
            }
        }
        return owners
    }

    /// How the root of a base navigator's stack shows, by the navigator's place.
    private static func baseRootPresentation(of navigator: String) -> Presentation {
        switch navigator {
        case "detail": Presentation(kind: .detail)
        case "supplementary": Presentation(kind: .supplementary)
        case let id where id.hasPrefix("tab:"): Presentation(kind: .tab)
        default: Presentation(kind: .root)
        }
    }

    /// Puts an added node on top of its navigator's stack (a new presented navigator first, when
    /// the node starts one) and last among its parent's children.
    private mutating func insert(_ added: NodeAdded) throws(Unmirrorable) {
        guard nodes[added.parent] != nil else { throw Unmirrorable() }
        if !state.navigators.contains(where: { $0.id == added.navigator }) {
            guard let presenter = added.presentedBy, navigatorIndex(presenter) != nil else { throw Unmirrorable() }
            state.navigators.append(Navigator(id: added.navigator, stack: [], parent: presenter, embedded: added.embedded ?? false))
        }
        nodes[added.node] = Node(
            id: added.node, screen: added.screen, title: added.title, params: added.params, presentation: added.presentation,
            sheet: added.sheet, anchor: added.anchor, dismissible: added.dismissible, navigator: added.navigator)
        children[added.node] = []
        parents[added.node] = added.parent
        children[added.parent, default: []].append(added.node)
        if let index = navigatorIndex(added.navigator) { state.navigators[index].stack.append(added.node) }
    }

    /// Takes one node out (its descendants have events of their own, and a node a set-root kept
    /// stays although its old parent goes).
    private mutating func remove(_ id: String) {
        guard let node = nodes.removeValue(forKey: id) else { return }
        if let navigator = node.navigator, let index = navigatorIndex(navigator) { state.navigators[index].stack.removeAll { $0 == id } }
        if let parent = parents.removeValue(forKey: id) { children[parent]?.removeAll { $0 == id } }
        children[id] = nil
    }

    /// Enters a flow as a switch left it: its base navigators, empty until the `added` events.
    private mutating func start(_ change: FlowChanged) {
        state.flow = change.to
        state.navigators = change.navigators.map { Navigator(id: $0, stack: []) }
        state.layout = change.navigators.contains("detail") ? .split : .stack
        state.tabs = nil
    }

    /// Selects a tab; after a switch of flows, the tab bar of the new flow's tab navigators.
    private mutating func selectTab(_ tab: String) {
        let items = state.navigators.filter { $0.parent == nil && $0.id.hasPrefix("tab:") }.map {
            Tabs.Tab(id: String($0.id.dropFirst("tab:".count)), navigator: $0.id)
        }
        state.tabs = Tabs(selected: tab, items: state.tabs?.items ?? items)
    }

    /// Sets a stack as a set-root did: its nodes become children of `owner` with their kinds by
    /// place; those it added or moved there go last among the owner's children, in stack order.
    private mutating func restack(
        _ navigatorID: String, _ stack: [String], owner: String, rootPresentation: Presentation, added: Set<String>
    ) throws(Unmirrorable) {
        guard let index = navigatorIndex(navigatorID), stack.allSatisfy({ nodes[$0] != nil }) else { throw Unmirrorable() }
        let placed = stack.filter { added.contains($0) || parents[$0] != owner }
        for id in placed {
            if let parent = parents[id] { children[parent]?.removeAll { $0 == id } }
            parents[id] = owner
        }
        children[owner, default: []].append(contentsOf: placed)
        for (place, id) in stack.enumerated() {
            nodes[id]!.presentation = place == 0 ? rootPresentation : Presentation(kind: .push)
            nodes[id]!.navigator = navigatorID
        }
        state.navigators[index].stack = stack
    }

    /// Writes a flow's result on its parent, when the event says the parent holds it and the
    /// parent is still there.
    private mutating func keepResult(of finished: Logged<FlowFinished>) {
        guard finished.held != false, nodes[finished.parent] != nil else { return }
        let result = HeldResult(status: finished.result.status, value: finished.result.value, version: finished.version)
        nodes[finished.parent]!.results = (nodes[finished.parent]!.results ?? [:]).merging([finished.screen: result]) { _, new in new }
    }

    /// Presented navigators left empty go, as they do when their last node leaves; each
    /// navigator presents the root of the navigator it presents (a set-root may have replaced it).
    private mutating func linkPresentedNavigators() {
        state.navigators.removeAll { $0.parent != nil && $0.stack.isEmpty }
        var roots: [String: String] = [:]
        for navigator in state.navigators {
            if let parent = navigator.parent { roots[parent] = navigator.stack.first }
        }
        for index in state.navigators.indices {
            state.navigators[index].presented = roots[state.navigators[index].id]
        }
    }

    /// The size class, collapse and compact stack as the state document shows them: in a split
    /// view always, elsewhere the size class only when compact.
    private mutating func showSizeClass(compactTop: String?) {
        guard state.layout == .split else {
            state.sizeClass = sizeClass == .compact ? sizeClass : nil
            state.collapsed = nil
            state.compactStack = nil
            return
        }
        state.sizeClass = sizeClass
        state.collapsed = sizeClass == .compact
        let columns = ["primary", "supplementary", "detail"].compactMap { id in state.navigators.first { $0.id == id } }
        let top = compactTop == "primary" ? "primary" : columns.last { !$0.stack.isEmpty }?.id ?? "primary"
        var stack: [String] = []
        for column in columns {
            stack += column.stack
            if column.id == top { break }
        }
        state.compactStack = stack
    }

    private func navigatorIndex(_ id: String) -> Int? {
        state.navigators.firstIndex { $0.id == id }
    }
}
