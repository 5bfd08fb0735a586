import MinervaJSON

extension CoordinatorTree {
    /// Whether a node starts a flow whose leaving its parent learns of: it is presented, its
    /// screen declares `flow`, or it is a guard's `otherwise` flow.
    func isFlowRoot(_ node: Node) -> Bool {
        node.presentation.kind == .present || (app.declaresFlowScreens && app.screens[node.screen]?.flow == true)
            || pending?.guarded?.guardNode == node.id
    }

    /// Takes `targets` and every node of their subtrees off the screen and out of the tree.
    ///
    /// Nodes in `targets` get `reason`; their descendants get `ancestorRemoved`. Events come
    /// top-most first. Presented navigators left empty go with their nodes, except `refilling`,
    /// whose stack the caller fills again at once. A flow root among `targets` whose parent
    /// stays is cancelled when `reason` cancels flows: a `finished` event with status
    /// `cancelled`, the `cause` and whether the user did it (`interactive`) follows the removals.
    /// - Complexity: O(n) in the number of nodes.
    mutating func remove(
        _ targets: Set<NodeID>, reason: NavigationEvent.RemovalReason, refilling: NavigatorID? = nil, interactive: Bool = false
    ) -> [NavigationEvent] {
        guard !targets.isEmpty else { return [] }
        var removed = targets
        var queue = Array(targets)
        while let next = queue.popLast() {
            for child in self[node: next].children where removed.insert(child).inserted {
                queue.append(child)
            }
        }
        var events: [NavigationEvent] = []
        events.reserveCapacity(removed.count)
        // One node (a pop, the commonest removal) needs no screen order.
        for id in removed.count == 1 ? Array(removed) : nodesInScreenOrder.reversed() where removed.contains(id) {
            let node = self[node: id]
            events.append(
                .removed(RemovedNode(node: id, screen: node.screen, reason: targets.contains(id) ? reason : .ancestorRemoved, navigator: node.stackNavigator)))
        }
        for navigatorID in Set(removed.compactMap { nodes[$0]?.navigator }) {
            self[navigator: navigatorID].stack.removeAll { removed.contains($0) }
        }
        let emptied = navigatorOrder.filter { self[navigator: $0].stack.isEmpty && !self[navigator: $0].isBase && $0 != refilling }
        for navigatorID in emptied {
            if let parent = self[navigator: navigatorID].parent {
                navigators[parent]?.presentedNavigator = nil
            }
            navigators[navigatorID] = nil
        }
        if !emptied.isEmpty {
            navigatorOrder.removeAll { navigators[$0] == nil }
        }
        if reason.cancelsFlows {
            var cancelled: [NavigationEvent] = []
            for case .removed(let gone) in events {
                let node = self[node: gone.node]
                guard isFlowRoot(node), targets.contains(node.id), let parent = node.parent, !removed.contains(parent) else { continue }
                var result: [String: JSONValue] = ["status": .string(FlowStatus.cancelled.rawValue), "cause": .string(reason.rawValue)]
                if interactive { result["interactive"] = true }
                cancelled.append(
                    .finished(
                        FinishedFlow(
                            node: node.id, screen: node.screen, parent: parent, result: .object(result),
                            held: holdsResult(of: node.screen, parent: parent, value: nil))))
            }
            events += cancelled
        }
        // A guard's flow that leaves takes its target with it.
        if let guardNode = pending?.guarded?.guardNode, removed.contains(guardNode) { pending = nil }
        for id in removed {
            guard let node = nodes.removeValue(forKey: id) else { continue }
            if let parent = node.parent, !removed.contains(parent) {
                self[node: parent].children.removeAll { $0 == id }
            }
        }
        return events
    }
}
