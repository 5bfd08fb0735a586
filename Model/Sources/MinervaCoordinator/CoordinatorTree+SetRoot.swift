public import MinervaJSON

extension CoordinatorTree {
    /// Replaces a navigator's whole stack with new nodes; the old ones leave with reason `setRoot`.
    /// (``setRoot(navigator:entries:)`` with screens only.)
    @discardableResult
    public mutating func setRoot(navigator: NavigatorID? = nil, stack: [(screen: String, params: [String: JSONValue])])
        throws(NavigationError) -> (events: [NavigationEvent], nodes: [NodeID])
    {
        try setRoot(navigator: navigator, entries: stack.map { .screen($0.screen, params: $0.params) })
    }

    /// Sets a navigator's whole stack: new nodes for screens, and nodes already on it kept at
    /// their new places (their ids, params, lists and subtrees); the nodes left out leave with
    /// reason `setRoot`.
    ///
    /// The stack's nodes are siblings: children of the app coordinator for a base navigator, of
    /// the presenting node for a presented one. The first takes the stack's root kind, the rest
    /// `push`. A guarded screen whose flag is missing shows its `otherwise` flow from the focus:
    /// the entries before it become the stack (none replaced when it is the first) and it and
    /// the rest wait as the pending target.
    /// - Parameters:
    ///   - navigator: the navigator; default the focus's.
    ///   - entries: the stack, bottom first; at least one.
    /// - Returns: the events and the ids of the stack set (those placed before a guard).
    /// - Throws: `notFound` for an unknown navigator or node, `invalid` for an empty stack,
    ///   unknown screens, missing params, a node listed twice or after a guarded entry, `conflict`
    ///   for a node not on that stack, or several nodes on a presented navigator that is not embedded.
    @discardableResult
    public mutating func setRoot(navigator: NavigatorID? = nil, entries: [StackEntry<NodeID>])
        throws(NavigationError) -> (events: [NavigationEvent], nodes: [NodeID])
    {
        let navigatorID = navigator ?? self[node: focus].stackNavigator
        guard !entries.isEmpty else { throw .invalid("stack must hold at least one screen") }
        let target = self[navigator: navigatorID]
        var listed: Set<NodeID> = []
        for entry in entries {
            switch entry {
            case .screen(let screen, let params):
                _ = try screenEntry(screen, params: params)
            case .node(let id):
                let node = self[node: id]
                guard node.navigator == navigatorID else {
                    throw .conflict("'\(id)' is not on navigator '\(navigatorID)': a kept node must be on the stack it is set on")
                }
                guard listed.insert(node.id).inserted else { throw .invalid("'\(id)' is listed twice in the stack") }
            }
        }
        if !target.embedded, entries.count > 1 {
            throw .conflict("navigator '\(navigatorID)' is not embedded in a navigation stack and holds one node only")
        }
        try requireAboveOverlay(navigatorID, action: "set the stack of navigator '\(navigatorID)'")
        if let overlay, navigatorID == .overlay, case let root = target.stack[0], entries[0] != .node(root) {
            throw .conflict(
                "'\(root)' is the root of overlay '\(overlay)', which no set-root replaces (\(overlayEnd(overlay))): "
                    + "list it first to set what stands above it")
        }
        // A guard holds here too: the entries before the first guarded one become the stack, the
        // rest waits behind the guard's flow; when the first is guarded, nothing is replaced.
        let guarded = entries.firstIndex { entry in
            guard case .screen(let screen, _) = entry else { return false }
            return app.screens[screen]?.guarded.map { !flags.contains($0.flag) } ?? false
        }
        var waiting: [AppDescription.Step] = []
        for entry in entries[(guarded ?? entries.endIndex)...] {
            guard case .screen(let screen, let params) = entry else {
                throw .invalid("a kept node cannot wait behind a guarded entry; list it before the guarded one")
            }
            waiting.append(AppDescription.Step(screen: screen, params: params))
        }
        var next = self
        var events: [NavigationEvent] = []
        var ids: [NodeID] = []
        let placed = entries[..<(guarded ?? entries.endIndex)]
        if !placed.isEmpty {
            let parent = target.isBase ? rootID : self[node: target.stack[0]].parentID
            (events, ids) = next.rebuildStack(of: navigatorID, with: Array(placed), parent: parent)
        }
        if guarded != nil, let flow = try next.divert(waiting, as: .setRoot, navigator: navigatorID, replacesStack: placed.isEmpty, from: nil) {
            events += flow.events
        }
        self = next
        return (events, ids)
    }

    /// Sets a stack from checked entries: kept nodes move under `parent` first, so that removing
    /// the others (reason `setRoot`) does not take them along; then each place gets its node.
    private mutating func rebuildStack(of navigatorID: NavigatorID, with entries: [StackEntry<NodeID>], parent: NodeID)
        -> (events: [NavigationEvent], nodes: [NodeID])
    {
        let kept = Set(entries.compactMap { entry -> NodeID? in
            guard case .node(let id) = entry else { return nil }
            return id
        })
        for id in kept {
            if let oldParent = self[node: id].parent, oldParent != parent { nodes[oldParent]?.children.removeAll { $0 == id } }
        }
        let before = self[navigator: navigatorID].stack.filter(kept.contains).map { Placement(self[node: $0]) }
        var events = remove(Set(self[navigator: navigatorID].stack).subtracting(kept), reason: .setRoot, refilling: navigatorID)
        let rootPresentation = self[navigator: navigatorID].rootPresentation
        var ids: [NodeID] = []
        for (index, entry) in entries.enumerated() {
            let presentation = index == 0 ? rootPresentation : Presentation(.push)
            switch entry {
            case .screen(let screen, let params):
                ids.append(makeNode(screen: screen, params: params, presentation: presentation, navigator: navigatorID, parent: parent))
            case .node(let id):
                let old = self[node: id]
                nodes[old.id] = Node(
                    id: old.id, screen: old.screen, params: old.params, presentation: presentation, navigator: navigatorID, parent: parent,
                    children: old.children, title: old.title, holdings: old.holdings)
                if old.parent != parent { self[node: parent].children.append(old.id) }
                ids.append(old.id)
            }
        }
        self[navigator: navigatorID].stack = ids
        // Kept nodes that moved (another order, another parent or kind) or that new nodes went
        // below are a change of their own, which `added` (on top of a stack) and `removed` do not describe.
        if before != ids.filter(kept.contains).map({ Placement(self[node: $0]) }) || !ids.prefix(kept.count).allSatisfy(kept.contains) {
            events.append(.stackChanged(navigator: navigatorID, stack: ids))
        }
        return (events, ids)
    }

    /// Removes a stack's nodes with `reason`, then fills it with new children of `parent`.
    mutating func replaceStack(
        of navigatorID: NavigatorID, with stack: [(screen: String, params: [String: JSONValue])], parent: NodeID,
        reason: NavigationEvent.RemovalReason
    ) -> (events: [NavigationEvent], nodes: [NodeID]) {
        let events = remove(Set(self[navigator: navigatorID].stack), reason: reason, refilling: navigatorID)
        let rootPresentation = self[navigator: navigatorID].rootPresentation
        var ids: [NodeID] = []
        for (index, entry) in stack.enumerated() {
            let presentation = index == 0 ? rootPresentation : Presentation(.push)
            ids.append(makeNode(screen: entry.screen, params: entry.params, presentation: presentation, navigator: navigatorID, parent: parent))
        }
        self[navigator: navigatorID].stack = ids
        return (events, ids)
    }
}

/// Where a node stands: what a set-root that keeps it may change.
private struct Placement: Equatable {
    let id: NodeID
    let parent: NodeID?
    let presentation: Presentation

    init(_ node: Node) {
        id = node.id
        parent = node.parent
        presentation = node.presentation
    }
}
