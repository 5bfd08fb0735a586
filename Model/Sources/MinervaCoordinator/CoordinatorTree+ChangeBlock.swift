extension CoordinatorTree {
    /// The whole block of events that changed `old` into this tree, in the order a client
    /// applies them: `removed` (top-most first, as the operation reported them), `finished`,
    /// `flowChanged` (a switch of root flows), `overlayChanged` (an overlay came or left, or came
    /// again over a new flow), `added` (those the operation reported — a restore's
    /// nodes that come back — then new nodes in the order they were shown), `stackChanged` (a
    /// set-root that moved nodes it kept), `paramsChanged`, then `tabSelected` (also after every
    /// switch into a tab bar), `sizeClassChanged`, `displayModeChanged`, `presentationChanged` as the operation reported them,
    /// `flagsChanged`, `pendingChanged` and `heldLinksChanged`, each at most once with its final value, then
    /// `uiChanged` and `resultConsumed` as the operation reported them.
    ///
    /// An empty block means the operation changed nothing (selecting the selected tab, setting
    /// a flag already set).
    /// - Parameters:
    ///   - old: the tree before the operation.
    ///   - operationEvents: the removals and flow results the operation returned.
    /// - Complexity: O(k) in the number of events and new nodes.
    public func changeBlock(since old: CoordinatorTree, operationEvents: [NavigationEvent]) -> [NavigationEvent] {
        let firstNew = old.nextNodeNumber
        var block: [NavigationEvent] = []
        block.reserveCapacity(operationEvents.count + nextNodeNumber - firstNew + 3)
        for event in operationEvents {
            // A node made and removed by the same operation was never on screen for anyone.
            if case .removed(let removed) = event, removed.node.number < firstNew { block.append(event) }
        }
        var switched = false
        for event in operationEvents {
            // Nor did its flow finish for anyone.
            if case .finished(let finished) = event, finished.node.number < firstNew { block.append(event) }
        }
        for event in operationEvents {
            if case .flowChanged = event {
                block.append(event)
                switched = true
            }
        }
        if overlay != old.overlay || (switched && overlay != nil) { block.append(.overlayChanged(overlay)) }
        for event in operationEvents {
            if case .added = event { block.append(event) }
        }
        for number in firstNew..<max(firstNew, nextNodeNumber) {
            if let node = nodes[NodeID(number)] { block.append(.added(added(node))) }
        }
        for event in operationEvents {
            if case .stackChanged(let navigator, _) = event, let stack = navigators[navigator]?.stack {
                block.append(.stackChanged(navigator: navigator, stack: stack))
            }
        }
        var changedParams: Set<NodeID> = []
        for event in operationEvents {
            // One per node, with its final params; those of a node the same operation made are in its `added`.
            if case .paramsChanged(let node, _) = event, node.number < firstNew, let params = nodes[node]?.params, changedParams.insert(node).inserted {
                block.append(.paramsChanged(node: node, params: params))
            }
        }
        // A new flow's tab bar always says which tab it selects.
        if let selectedTab, selectedTab != old.selectedTab || switched { block.append(.tabSelected(selectedTab)) }
        if sizeClass != old.sizeClass { block.append(.sizeClassChanged(sizeClass)) }
        // A new flow starts `automatic` (its replay says so), so a switch says only another mode.
        if displayMode != (switched ? .automatic : old.displayMode) { block.append(.displayModeChanged(displayMode)) }
        for event in operationEvents {
            if case .presentationChanged = event { block.append(event) }
        }
        if flags != old.flags { block.append(.flagsChanged(flags.sorted())) }
        if pending != old.pending { block.append(.pendingChanged(pending)) }
        if heldLinks != old.heldLinks { block.append(.heldLinksChanged(heldLinks)) }
        for event in operationEvents {
            if case .uiChanged = event { block.append(event) }
        }
        for event in operationEvents {
            if case .resultConsumed = event { block.append(event) }
        }
        return block
    }

    /// How the `added` event describes a node of this tree.
    func added(_ node: Node) -> AddedNode {
        let navigator = self[navigator: node.stackNavigator]
        let startsNavigator = !navigator.isBase && navigator.stack.first == node.id
        return AddedNode(
            node: node.id, screen: node.screen, params: node.params, parent: node.parentID, navigator: navigator.id,
            presentation: node.presentation, presentedBy: startsNavigator ? navigator.parent : nil,
            embedded: startsNavigator ? navigator.embedded : nil, title: node.title,
            settings: node.settings)
    }
}
