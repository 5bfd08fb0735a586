import MinervaJSON

extension CoordinatorTree {
    /// A guard holds on every path: when the first of `steps` is a guarded screen whose flag is
    /// missing, its `otherwise` flow is shown from `origin` (as `navigate` would show it) and the
    /// steps become the pending target, to resume as `operation`. While a guard's flow is
    /// showing already, the new target replaces the pending one and no second flow is shown.
    /// - Returns: the events and the flow's node, or `nil` when the first step is not held by a guard.
    /// - Throws: `invalid` for an unknown screen or missing params; whatever showing the flow throws.
    mutating func divert(
        _ steps: [AppDescription.Step], as operation: PendingNavigation.Operation, navigator: NavigatorID? = nil, replacesStack: Bool = false,
        from origin: NodeID?
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID)? {
        guard let first = steps.first else { return nil }
        let entry = try screenEntry(first.screen, params: first.params)
        guard let guarded = entry.guarded, !flags.contains(guarded.flag) else { return nil }
        _ = try self.origin(origin)
        if let showing = pending?.guarded, nodes[showing.guardNode] != nil {
            if let overlay, let beneath = nodes[showing.guardNode]?.navigator, !isInOverlay(beneath) {
                throw NavigationError(
                    category: .conflict,
                    description: overlayMessage(overlay, action: "wait for \(Excerpt(first.screen)) behind the guard flow \(showing.guardNode) that waits there"),
                    code: "overlaid")
            }
            // The flow keeps its flag: a target that needs another one meets its own guard when it resumes.
            pending = .guarded(showing.replacing(operation: operation, steps: steps, navigator: navigator, replacesStack: replacesStack))
            return ([], showing.guardNode)
        }
        var next = self
        let flow = AppDescription.Step(screen: guarded.otherwise, params: guarded.otherwiseParams)
        let shown = try next.show(flow, from: origin)
        // It replaces a pending deep link too: one slot, the newest wins.
        next.pending = .guarded(
            PendingNavigation(
                operation: operation, steps: steps, navigator: navigator, replacesStack: replacesStack, guardNode: shown.node, flag: guarded.flag))
        self = next
        return shown
    }

    /// Shows a pending target again once its flow finished with `success` (the flag is set):
    /// the operation it was, each step meeting the guards again.
    /// - Returns: the events.
    /// - Throws: when the target can no longer be shown (its origin or navigator is gone, say).
    mutating func resume(_ target: PendingNavigation) throws(NavigationError) -> [NavigationEvent] {
        switch target.operation {
        case .navigate, .push, .present:
            return try apply(target.steps, from: nil).events
        case .setRoot:
            guard let navigator = target.navigator, navigators[navigator] != nil else {
                throw .conflict("the navigator of the pending set-root is gone")
            }
            if target.replacesStack {
                return try setRoot(navigator: navigator, stack: target.steps.map { ($0.screen, $0.params) }).events
            }
            var events: [NavigationEvent] = []
            for step in target.steps {
                events += try push(screen: step.screen, params: step.params, from: self[navigator: navigator].top).events
            }
            return events
        case .selectTab:
            guard let tab = tabs?.first(where: { Self.navigatorID(forTab: $0.id) == target.navigator })?.id else {
                throw .conflict("the tab of the pending select-tab is gone")
            }
            var events = try selectTab(tab)
            if target.steps.count > 1 { events += try reconcile(Array(target.steps.dropFirst()), tab: nil, of: nil) }
            return events
        }
    }

    /// A guard on a tab's root holds as it does on `navigate`: selecting the tab while its flag
    /// is missing shows the guard's `otherwise` flow from the focus, and the selection (with a
    /// deep link's `steps` into that tab) waits as the pending target, resumed when the flow
    /// finishes with `success`.
    /// - Returns: the events, or `nil` when the tab's root is not held by a guard.
    mutating func divertSelection(of tab: String, then steps: [AppDescription.Step] = []) throws(NavigationError) -> [NavigationEvent]? {
        guard let root = tabs?.first(where: { $0.id == tab })?.screen else { return nil }
        let navigator = Self.navigatorID(forTab: tab)
        return try divert([AppDescription.Step(screen: root)] + steps, as: .selectTab, navigator: navigator, from: nil)?.events
    }
}
