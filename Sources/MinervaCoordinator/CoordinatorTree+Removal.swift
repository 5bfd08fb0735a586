extension CoordinatorTree {
    /// Takes `targets` and every node of their subtrees off the screen and out of the tree.
    ///
    /// Nodes in `targets` get `reason`; their descendants get `ancestorRemoved`. Events come
    /// top-most first. Presented navigators left empty go with their nodes, except `refilling`,
    /// whose stack the caller fills again at once.
    /// - Complexity: O(n) in the number of nodes.
    mutating func remove(
        _ targets: Set<NodeID>, reason: NavigationEvent.RemovalReason, refilling: NavigatorID? = nil
    ) -> [NavigationEvent] {
        guard !targets.isEmpty else { return [] }
        var removed = targets
        var queue = Array(targets)
        while let next = queue.popLast() {
            for child in nodes[next]!.children where removed.insert(child).inserted {
                queue.append(child)
            }
        }
        var events: [NavigationEvent] = []
        events.reserveCapacity(removed.count)
        // One node (a pop, the commonest removal) needs no screen order.
        for id in removed.count == 1 ? Array(removed) : nodesInScreenOrder.reversed() where removed.contains(id) {
            let node = nodes[id]!
            events.append(
                .removed(RemovedNode(node: id, screen: node.screen, reason: targets.contains(id) ? reason : .ancestorRemoved, navigator: node.navigator!)))
        }
        for navigatorID in Set(removed.compactMap { nodes[$0]?.navigator }) {
            navigators[navigatorID]!.stack.removeAll { removed.contains($0) }
        }
        let emptied = navigatorOrder.filter { navigators[$0]!.stack.isEmpty && !navigators[$0]!.isBase && $0 != refilling }
        for navigatorID in emptied {
            if let parent = navigators[navigatorID]!.parent {
                navigators[parent]?.presentedNavigator = nil
            }
            navigators[navigatorID] = nil
        }
        if !emptied.isEmpty {
            navigatorOrder.removeAll { navigators[$0] == nil }
        }
        if let guardNode = pending?.guarded?.guardNode, removed.contains(guardNode) {
            // A guard's flow that leaves any way but its own finish drops the target as
            // `cancelled` would, and says so (a finish sends its own `finished`).
            if !(reason == .finish && targets.contains(guardNode)), let flow = nodes[guardNode], let parent = flow.parent {
                events.append(.finished(FinishedFlow(node: guardNode, screen: flow.screen, parent: parent, result: .object(["status": "cancelled"]))))
            }
            pending = nil
        }
        for id in removed {
            let node = nodes.removeValue(forKey: id)!
            if let parent = node.parent, !removed.contains(parent) {
                nodes[parent]!.children.removeAll { $0 == id }
            }
        }
        return events
    }
}
