extension CoordinatorTree {
    /// Applies one mutation's block of events, as the change log keeps it, to the tree the
    /// mutation started from: what rebuilds an earlier version forward from a stored snapshot.
    ///
    /// The block must be one the operations made (``changeBlock(since:operationEvents:)``); a
    /// restore's block is not replayed (its result is stored as a snapshot of its own).
    /// - Parameters:
    ///   - block: the mutation's navigation events.
    ///   - version: the version the block produced, which its flows' results carry.
    ///   - counters: the id counters the block's final event carries, when its operation made ids
    ///     no event shows; without them the counters move past the ids the block names
    ///     (``IDCounters/advanced(past:)``), which is then exact.
    /// - Complexity: O(k·s) in the block's events and the longest stack or list of children they touch.
    public mutating func replay(_ block: [NavigationEvent], version: Int, counters: IDCounters? = nil) {
        // A set-root's stack hangs from the app coordinator or the presenting node, read before
        // the block removes the stack's old root.
        var owners: [NavigatorID: NodeID] = [:]
        for event in block {
            guard case .stackChanged(let id, _) = event, let navigator = navigators[id] else { continue }
            owners[id] = navigator.isBase ? rootID : navigator.stack.first.flatMap { nodes[$0]?.parent }
        }
        var added: Set<NodeID> = []
        for event in block {
            switch event {
            case .added(let node):
                insert(node)
                added.insert(node.node)
            case .removed(let removed):
                take(removed.node)
            case .finished:
                break
            case .flowChanged(let change):
                startFlow(change)
            case .overlayChanged(let name):
                replayOverlay(name)
            case .sizeClassChanged(let horizontal):
                sizeClass = horizontal
            case .displayModeChanged(let mode):
                displayMode = mode
            case .paramsChanged(let node, let params):
                nodes[node]?.params = params
            case .tabSelected(let tab):
                selectedTab = tab
            case .flagsChanged(let newFlags):
                flags = Set(newFlags)
            case .pendingChanged(let newPending):
                pending = newPending
            case .heldLinksChanged(let links):
                heldLinks = links
            case .stackChanged(let navigator, let stack):
                if let owner = owners[navigator] { restack(navigator, stack, owner: owner, added: added) }
            case .presentationChanged(let node, let selected, let dismissible):
                applyPresentationChange(of: node, selected: selected, dismissible: dismissible)
            case .uiChanged(let node, let value):
                nodes[node]?.holdings.ui = value.isEmpty ? nil : value
            case .resultConsumed(let node, let screen):
                guard var held = nodes[node]?.results else { continue }
                held[screen] = nil
                nodes[node]?.holdings.results = held.isEmpty ? nil : held
            }
        }
        keepResults(of: block, version: version)
        // Presented navigators left empty go, as they do when their last node leaves (a stack the
        // operation filled again in the same block kept its navigator).
        let emptied = navigatorOrder.filter { self[navigator: $0].stack.isEmpty && !self[navigator: $0].isBase }
        for id in emptied {
            if let parent = self[navigator: id].parent, navigators[parent]?.presentedNavigator == id { self[navigator: parent].presentedNavigator = nil }
            navigators[id] = nil
        }
        if !emptied.isEmpty { navigatorOrder.removeAll { navigators[$0] == nil } }
        if let counters {
            nextNodeNumber = counters.nextNode
            nextNavigatorNumber = counters.nextNavigator
        }
    }

    /// Enters a flow as a switch left it: no navigators but its empty base ones (the old
    /// flow's nodes left by the block's `removed` events; the new roots come as `added`).
    private mutating func startFlow(_ change: FlowChange) {
        navigators = [:]
        navigatorOrder = []
        flow = change.to
        selectedTab = nil
        displayMode = .automatic
        overlay = nil
        layout = change.bases.contains { $0.rootKind == .detail } ? .split : .stack
        for base in change.bases {
            addNavigator(Navigator(id: base.id, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: base.rootKind)))
        }
    }

    /// Shows an overlay as its event says, its navigator empty until its root's `added` event; or
    /// takes it away (its nodes left by the block's `removed` events).
    private mutating func replayOverlay(_ name: String?) {
        if navigators[.overlay] != nil {
            navigators[.overlay] = nil
            navigatorOrder.removeAll { $0 == .overlay }
        }
        overlay = name
        if name != nil {
            addNavigator(Navigator(id: .overlay, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .overlay)))
        }
    }

    /// Puts an added node on top of its navigator's stack (a new presented navigator first, when
    /// the node starts one) and last among its parent's children.
    private mutating func insert(_ added: AddedNode) {
        if navigators[added.navigator] == nil, let presenter = added.presentedBy {
            addNavigator(
                Navigator(
                    id: added.navigator, stack: [], presentedNavigator: nil, parent: presenter, embedded: added.embedded ?? false,
                    role: .presented(added.presentation.style ?? .automatic)))
            navigators[presenter]?.presentedNavigator = added.navigator
        }
        nodes[added.node] = Node(
            id: added.node, screen: added.screen, params: added.params, presentation: added.presentation, navigator: added.navigator,
            parent: added.parent, children: [], title: app.screens[added.screen]?.title)
        if let settings = added.settings, !settings.isEmpty { nodes[added.node]?.holdings.settings = settings }
        nodes[added.parent]?.children.append(added.node)
        navigators[added.navigator]?.stack.append(added.node)
        var counters = idCounters
        counters.advance(past: added)
        (nextNodeNumber, nextNavigatorNumber) = (counters.nextNode, counters.nextNavigator)
    }

    /// Takes one node out (its descendants have events of their own, and a node a set-root kept
    /// stays although its old parent goes).
    private mutating func take(_ id: NodeID) {
        guard let node = nodes.removeValue(forKey: id) else { return }
        if let navigator = node.navigator { navigators[navigator]?.stack.removeAll { $0 == id } }
        if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == id } }
    }

    /// Sets a stack as a set-root did: its nodes become children of `owner` with their kinds by
    /// place; those it added or moved there go last among the owner's children, in stack order.
    private mutating func restack(_ navigatorID: NavigatorID, _ stack: [NodeID], owner: NodeID, added: Set<NodeID>) {
        guard let navigator = navigators[navigatorID], stack.allSatisfy({ nodes[$0] != nil }) else { return }
        let placed = stack.filter { added.contains($0) || self[node: $0].parent != owner }
        for id in placed {
            if let parent = self[node: id].parent { nodes[parent]?.children.removeAll { $0 == id } }
        }
        nodes[owner]?.children.append(contentsOf: placed)
        for (index, id) in stack.enumerated() {
            let node = self[node: id]
            nodes[id] = Node(
                id: id, screen: node.screen, params: node.params, presentation: index == 0 ? navigator.rootPresentation : Presentation(.push),
                navigator: navigatorID, parent: owner, children: node.children, title: node.title, holdings: node.holdings)
        }
        self[navigator: navigatorID].stack = stack
    }
}
