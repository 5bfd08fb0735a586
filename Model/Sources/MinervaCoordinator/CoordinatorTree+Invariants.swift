extension CoordinatorTree {
    /// Checks every structural guarantee of the model and stops the program if one is broken.
    ///
    /// Tests call it after every operation: every node but the app coordinator stands on
    /// exactly one stack (the one it names), parents and children agree, every node is
    /// reachable from the root, presented navigators hang from the navigator that presents
    /// them and hold only descendants of the presenting node, kinds match positions, and the
    /// focus is a node on a stack; and every presented navigator's presenter was visible when it
    /// presented (at most one window-level presentation covers the window, from a shown base
    /// navigator; a compact split view shows no other presentation from a column it hides),
    /// which a snapshot stored by an earlier release need not keep.
    /// - Complexity: O(n) in the number of nodes.
    public func checkInvariants() {
        if let violation = invariantViolation() ?? visibilityViolation() { preconditionFailure(violation) }
    }

    /// A presentation a device could not have shown, described, or `nil`.
    func visibilityViolation() -> String? {
        let covers = windowCovers
        let beneath = flowWindowCovers
        guard covers.count <= 1, beneath.count <= 1 else { return "window-level presentations \(beneath) cover each other" }
        // A split view that collapsed under a window-level presentation still shows it.
        if let cover = covers.first, !shownBaseNavigators.contains(base(of: cover)), !columns.contains(base(of: cover)) {
            return "window-level presentation \(cover) hangs from base navigator \(base(of: cover)), which is not shown"
        }
        // A collapse dismisses what hangs from a column compact does not show.
        for column in hiddenColumns {
            if let presented = self[navigator: column].presentedNavigator {
                return "\(presented) hangs from column \(column), which the compact split view does not show"
            }
        }
        return nil
    }

    /// The first broken guarantee, described, or `nil` when the tree is sound (see ``checkInvariants()``).
    /// Used to refuse a stored snapshot that does not make a valid tree.
    public func invariantViolation() -> String? {
        guard let root = nodes[rootID] else { return "the app coordinator is missing" }
        guard root.navigator == nil && root.parent == nil && root.presentation.kind == .app else { return "the app coordinator is malformed" }
        guard Set(navigatorOrder) == Set(navigators.keys) && navigatorOrder.count == navigators.count else { return "navigator order out of step" }
        for base in baseNavigators {
            guard navigators[base]?.isBase == true else { return "base navigator \(base) missing" }
        }

        var placed: [NodeID: NavigatorID] = [:]
        for (id, navigator) in navigators {
            guard navigator.id == id else { return "navigator keyed under another id" }
            if !navigator.isBase, let number = id.number, number >= nextNavigatorNumber { return "\(id) is beyond the id counter" }
            for (index, nodeID) in navigator.stack.enumerated() {
                guard placed.updateValue(id, forKey: nodeID) == nil else { return "\(nodeID) stands on two stacks" }
                guard let node = nodes[nodeID] else { return "\(nodeID) on \(id) is not in the tree" }
                guard node.navigator == id else { return "\(nodeID) names \(String(describing: node.navigator)) but stands on \(id)" }
                let expected = index == 0 ? navigator.rootPresentation : Presentation(.push)
                guard node.presentation == expected else { return "\(nodeID) has kind \(node.presentation) at index \(index) of \(id)" }
            }
            if navigator.isBase {
                guard navigator.stack.count > 0 || (layout == .split && id != .primary && id != .overlay) else { return "base navigator \(id) is empty" }
                guard baseNavigators.contains(id) || (id == .overlay && overlay != nil) else { return "unexpected base navigator \(id)" }
            } else {
                guard !navigator.stack.isEmpty else { return "presented navigator \(id) is empty" }
                guard navigator.embedded || navigator.stack.count == 1 else { return "\(id) is not embedded but holds several nodes" }
                guard let parent = navigator.parent.flatMap({ navigators[$0] }), parent.presentedNavigator == id else { return "\(id) is not presented by its parent navigator" }
                guard let presenter = nodes[navigator.stack[0]]?.parent else { return "\(id)'s root has no parent" }
                guard nodes[presenter]?.navigator == navigator.parent else { return "\(id) is presented from a node of another navigator" }
                for nodeID in navigator.stack {
                    guard isDescendant(nodeID, of: presenter) else { return "\(nodeID) on \(id) is not below its presenter \(presenter)" }
                }
            }
            if let presented = navigator.presentedNavigator {
                guard navigators[presented]?.parent == id else { return "\(id) presents \(presented), which names another parent" }
            }
        }
        guard placed.count == nodes.count - 1 else { return "\(nodes.count - 1 - placed.count) nodes stand on no stack" }

        var reached = 0
        var queue = [rootID]
        while let id = queue.popLast() {
            reached += 1
            guard reached <= nodes.count else { return "the tree has a cycle" }
            let node = self[node: id]
            for child in node.children {
                guard nodes[child]?.parent == id else { return "\(child) does not name \(id) as parent" }
                queue.append(child)
            }
        }
        guard reached == nodes.count else { return "the tree has \(nodes.count) nodes but \(reached) are reachable" }
        for node in nodes.values where node.id != rootID {
            guard let parent = node.parent, nodes[parent]?.children.contains(node.id) == true else { return "\(node.id)'s parent does not list it" }
            guard node.id.number < nextNodeNumber else { return "\(node.id) is beyond the id counter" }
        }
        guard app.flows[flow] != nil else { return "the flow '\(flow)' is not one of the app's" }
        if let overlay {
            guard app.flows[overlay]?.overlay == true else { return "'\(overlay)' is not an overlay flow of the app" }
            guard navigators[.overlay]?.role == .base(rootKind: .overlay) else { return "the overlay's navigator is missing" }
        } else {
            guard navigators[.overlay] == nil else { return "an overlay navigator without an overlay" }
        }
        if let tabs {
            guard tabs.contains(where: { $0.id == selectedTab }) else { return "the selected tab is not a tab of the flow" }
        } else {
            guard selectedTab == nil else { return "a tab is selected in a flow without tabs" }
        }
        switch pending {
        case .guarded(let target):
            guard nodes[target.guardNode] != nil else { return "the pending target's guard flow is gone" }
            guard !target.steps.isEmpty else { return "a pending target without steps" }
        case .link(let link):
            guard app.launchRank(of: link.flow) > app.launchRank(of: flow) || (overlay != nil && link.flow == flow) else {
                return "a pending link into a flow that is not later than the session's, nor waiting under an overlay"
            }
        case nil:
            break
        }
        for node in nodes.values {
            guard node.ui?.isEmpty != true else { return "\(node.id) holds an empty UI state" }
            guard node.results?.isEmpty != true else { return "\(node.id) holds an empty set of results" }
            guard node.settings?.isEmpty != true else { return "\(node.id) holds empty presentation settings" }
        }
        guard let focused = nodes[focus], focused.id != rootID else { return "the focus is not a node on a stack" }
        return nil
    }

    private func isDescendant(_ id: NodeID, of ancestor: NodeID) -> Bool {
        var current = nodes[id]?.parent
        var steps = 0
        while let next = current, steps <= nodes.count {
            steps += 1
            if next == ancestor { return true }
            current = nodes[next]?.parent
        }
        return false
    }
}
