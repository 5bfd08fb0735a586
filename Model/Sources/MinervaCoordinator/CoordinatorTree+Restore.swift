extension CoordinatorTree {
    /// Makes this tree show `target`, the same session's tree at an earlier version: the nodes of
    /// `target` come back with their ids, this tree's flags stay (flags are not restored) and its
    /// counters too (ids are never reused).
    ///
    /// A node stays when it stands where `target` has it (same parent, kind and navigator, the same
    /// nodes below it on its stack and before it among its parent's children, its parent staying);
    /// every other node leaves (reason `restore`, top-most first) and the nodes of `target` that
    /// are missing then are added in the order they are shown.
    /// - Parameters:
    ///   - target: the earlier tree (read with this tree's app).
    ///   - replacing: nodes that must leave and come back even when they stand where `target` has them.
    /// The nodes' UI state is that of `target`; flow results, the size class and a pending deep
    /// link are not restored (those of now are kept; a guard's target comes back with its flow).
    /// - Returns: the `removed` events, then the `added` ones, then `uiChanged` for each node
    ///   whose UI state differs from what the client holds.
    /// - Throws: `conflict` when `target` shows another root flow or another overlay (or none where
    ///   one is shown now: flags are not restored, so the session cannot go back across a switch), or when a node that comes back shows a guarded
    ///   screen whose flag is not set now; the tree is then unchanged.
    /// - Complexity: O(n²) in the number of nodes at worst.
    public mutating func restore(_ target: CoordinatorTree, replacing: Set<NodeID> = []) throws(NavigationError) -> [NavigationEvent] {
        guard target.flow == flow else {
            throw .conflict(
                "that version shows flow '\(target.flow)'; the session now shows flow '\(flow)', which its flags choose, and flags are not "
                    + "restored: it cannot go back across a switch of flows (read the version with GET …/versions/{version})")
        }
        // The same overlay shown since then: the same root (an unlock and a lock again make another).
        guard target.overlay == overlay, target.navigators[.overlay]?.stack.first == navigators[.overlay]?.stack.first else {
            let then = target.overlay.map { "overlay '\($0)' (\(target[navigator: .overlay].stack[0]))" } ?? "no overlay"
            let now = overlay.map { "overlay '\($0)' (\(self[navigator: .overlay].stack[0]))" } ?? "none"
            throw .conflict(
                "that version shows \(then); the session now shows \(now), which its flags choose, and flags are not restored: "
                    + "it cannot go back across an overlay coming or going (read the version with GET …/versions/{version})")
        }
        let kept = keptNodes(toward: target, replacing: replacing)
        var events: [NavigationEvent] = []
        for id in nodesInScreenOrder.reversed() where !kept.contains(id) {
            let node = self[node: id]
            events.append(.removed(RemovedNode(node: id, screen: node.screen, reason: .restore, navigator: node.stackNavigator)))
        }
        for id in target.additionOrder(of: Set(target.nodes.keys).subtracting(kept)) {
            let node = target[node: id]
            if let guarded = app.screens[node.screen]?.guarded, !flags.contains(guarded.flag) {
                throw .conflict(
                    "that version shows '\(node.screen)' (\(id)), which needs flag '\(guarded.flag)'; flags are not restored: set it first")
            }
            events.append(.added(target.added(node)))
        }
        // The UI state of then comes back (for nodes that stay, too); results do not: those of
        // nodes that stay are kept, nodes that come back hold none.
        for id in target.nodesInScreenOrder where (target[node: id].ui ?? [:]) != (kept.contains(id) ? self[node: id].ui ?? [:] : [:]) {
            events.append(.uiChanged(node: id, ui: target[node: id].ui ?? [:]))
        }
        // A sheet that stays moves to the detent of then; a node that stays says again whether it could be swiped away then.
        for id in target.nodesInScreenOrder where kept.contains(id) {
            var selected: String?
            if let then = target[node: id].settings?.sheet?.shown, let now = self[node: id].settings?.sheet?.shown, then != now {
                selected = then
            }
            let dismissible = target.isDismissible(target[node: id])
            let changed = dismissible != isDismissible(self[node: id]) ? dismissible : nil
            if selected != nil || changed != nil { events.append(.presentationChanged(node: id, selected: selected, dismissible: changed)) }
        }
        var next = target
        next.keepDismissible(of: kept, from: self, changes: events)
        for id in next.nodes.keys { next[node: id].holdings.results = kept.contains(id) ? self[node: id].results : nil }
        next.sizeClass = sizeClass
        // A pending link waits on flags, which are not restored: the one of now stays, one of
        // then does not come back (a guard's target comes back with its flow).
        if target.pending?.link != nil || target.pending == nil { next.pending = pending?.link.map(Pending.link) }
        next.run(app)
        // Held links arrived after the version gone back to: a restore drops them.
        next.dropHeldLinks()
        next.flags = flags
        next.nextNodeNumber = max(nextNodeNumber, target.nextNodeNumber)
        next.nextNavigatorNumber = max(nextNavigatorNumber, target.nextNavigatorNumber)
        self = next
        return events
    }

    /// The nodes that can stay as they are on the way to `target` (the app coordinator always does).
    private func keptNodes(toward target: CoordinatorTree, replacing: Set<NodeID>) -> Set<NodeID> {
        var kept = Set(nodes.keys.filter { id in
            guard id != rootID, !replacing.contains(id), let node = nodes[id], let old = target.nodes[id] else { return id == rootID }
            guard node.screen == old.screen, node.params == old.params, node.presentation == old.presentation,
                node.navigator == old.navigator, node.parent == old.parent,
                let navigator = navigators[node.stackNavigator], let oldNavigator = target.navigators[node.stackNavigator]
            else { return false }
            return navigator.parent == oldNavigator.parent && navigator.embedded == oldNavigator.embedded && navigator.role == oldNavigator.role
        })
        // What stays must stay in place: its parent stays, the nodes below it on its stack and the
        // children before it stay in the same order (`added` puts a node on top and last).
        var changed = true
        while changed {
            changed = false
            for id in kept where id != rootID {
                let node = self[node: id]
                let stack = self[navigator: node.stackNavigator].stack
                let oldStack = target[navigator: node.stackNavigator].stack
                let index = stack.index(ofKnown: id)
                let siblings = self[node: node.parentID].children
                let oldSiblings = target[node: node.parentID].children
                let place = siblings.index(ofKnown: id)
                let stays =
                    kept.contains(node.parentID) && oldStack.count > index && Array(stack[...index]) == Array(oldStack[...index])
                    && stack[..<index].allSatisfy(kept.contains) && oldSiblings.count > place && Array(siblings[...place]) == Array(oldSiblings[...place])
                    && siblings[..<place].allSatisfy(kept.contains)
                if !stays {
                    kept.remove(id)
                    changed = true
                }
            }
        }
        return kept
    }

    /// The order in which `added` events rebuild these nodes of this tree on top of the nodes
    /// that stay: parents before children, each stack bottom first, each node's children and the
    /// presented navigators in this tree's order; otherwise in screen order. A client applying the
    /// events in that order gets this tree's order of children and stacks.
    func additionOrder(of added: Set<NodeID>) -> [NodeID] {
        let screenOrder = nodesInScreenOrder.filter(added.contains)
        let rank = Dictionary(uniqueKeysWithValues: screenOrder.enumerated().map { ($1, $0) })
        var after: [NodeID: [NodeID]] = [:]
        var waitingFor: [NodeID: Int] = [:]
        func constrain(_ first: NodeID, before second: NodeID) {
            guard added.contains(first), added.contains(second), first != second else { return }
            after[first, default: []].append(second)
            waitingFor[second, default: 0] += 1
        }
        for node in nodes.values {
            if let parent = node.parent { constrain(parent, before: node.id) }
            for pair in zip(node.children, node.children.dropFirst()) { constrain(pair.0, before: pair.1) }
        }
        for navigator in navigators.values {
            for pair in zip(navigator.stack, navigator.stack.dropFirst()) { constrain(pair.0, before: pair.1) }
        }
        let presentedRoots = navigatorOrder.compactMap { self[navigator: $0].isBase ? nil : self[navigator: $0].stack.first }.filter(added.contains)
        for pair in zip(presentedRoots, presentedRoots.dropFirst()) { constrain(pair.0, before: pair.1) }
        var order: [NodeID] = []
        var ready = screenOrder.filter { waitingFor[$0, default: 0] == 0 }
        while let next = ready.min(by: { rank[$0, default: 0] < rank[$1, default: 0] }) {
            ready.removeAll { $0 == next }
            order.append(next)
            for later in after[next] ?? [] {
                waitingFor[later, default: 0] -= 1
                if waitingFor[later] == 0 { ready.append(later) }
            }
        }
        // The constraints cannot disagree for a tree the operations made; if they ever did, the
        // rest follows in screen order.
        let placed = Set(order)
        return order + screenOrder.filter { !placed.contains($0) }
    }
}

extension CoordinatorTree {
    /// A restore's nodes that stay keep whether they may be swiped away as it was before, but
    /// for the `presentationChanged` events the restore sends: what a client that replays the
    /// block holds too.
    fileprivate mutating func keepDismissible(of kept: Set<NodeID>, from current: CoordinatorTree, changes events: [NavigationEvent]) {
        for id in kept where id != rootID {
            var settings = self[node: id].settings ?? PresentationSettings()
            settings.dismissible = current[node: id].settings?.dismissible
            self[node: id].holdings.settings = settings.isEmpty ? nil : settings
        }
        for case .presentationChanged(let node, let selected, let dismissible) in events {
            applyPresentationChange(of: node, selected: selected, dismissible: dismissible)
        }
    }
}
