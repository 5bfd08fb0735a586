public import MinervaJSON

extension CoordinatorTree {
    /// Replaces a navigator's whole stack with new nodes; the old ones leave with reason `setRoot`.
    ///
    /// The new nodes are siblings: children of the app coordinator for a base navigator, of the
    /// presenting node for a presented one. The first takes the stack's root kind, the rest `push`.
    /// A guarded entry whose flag is missing shows its `otherwise` flow from the focus: the
    /// entries before it become the stack (none replaced when it is the first) and it and the
    /// rest wait as the pending target.
    /// - Parameters:
    ///   - navigator: the navigator; default the focus's.
    ///   - stack: the screens and params, bottom first; at least one.
    /// - Returns: the events and the new nodes' ids (those placed before a guard).
    /// - Throws: `notFound` for an unknown navigator, `invalid` for an empty stack, unknown
    ///   screens or missing params, `conflict` for several nodes on a presented navigator
    ///   that is not embedded.
    @discardableResult
    public mutating func setRoot(navigator: String? = nil, stack: [(screen: String, params: [String: JSONValue])])
        throws(NavigationError) -> (events: [NavigationEvent], nodes: [NodeID])
    {
        let navigatorID = try navigator.map { text throws(NavigationError) in try self.navigator(named: text).id }
            ?? nodes[focus]!.navigator!
        guard !stack.isEmpty else { throw .invalid("stack must hold at least one screen") }
        for entry in stack {
            _ = try screenEntry(entry.screen, params: entry.params)
        }
        let target = navigators[navigatorID]!
        if !target.embedded, stack.count > 1 {
            throw .conflict("navigator '\(navigatorID)' is not embedded in a navigation stack and holds one node only")
        }
        // A guard holds here too: the entries before the first guarded one become the stack, the
        // rest waits behind the guard's flow; when the first is guarded, nothing is replaced.
        let guarded = stack.firstIndex { entry in
            app.screens[entry.screen]?.guarded.map { !flags.contains($0.flag) } ?? false
        }
        var next = self
        var events: [NavigationEvent] = []
        var ids: [NodeID] = []
        let kept = stack[..<(guarded ?? stack.endIndex)]
        if !kept.isEmpty {
            let parent = target.isBase ? rootID : nodes[target.stack[0]]!.parent!
            (events, ids) = next.replaceStack(of: navigatorID, with: Array(kept), parent: parent, reason: .setRoot)
        }
        if let guarded {
            let waiting = stack[guarded...].map { AppDescription.Step(screen: $0.screen, params: $0.params) }
            let flow = try next.divert(waiting, as: .setRoot, navigator: navigatorID, replacesStack: kept.isEmpty, from: nil)!
            events += flow.events
        }
        self = next
        return (events, ids)
    }

    /// Removes a stack's nodes with `reason`, then fills it with new children of `parent`.
    mutating func replaceStack(
        of navigatorID: NavigatorID, with stack: [(screen: String, params: [String: JSONValue])], parent: NodeID,
        reason: NavigationEvent.RemovalReason
    ) -> (events: [NavigationEvent], nodes: [NodeID]) {
        let events = remove(Set(navigators[navigatorID]!.stack), reason: reason, refilling: navigatorID)
        let rootPresentation = navigators[navigatorID]!.rootPresentation
        var ids: [NodeID] = []
        for (index, entry) in stack.enumerated() {
            let presentation = index == 0 ? rootPresentation : Presentation(.push)
            ids.append(makeNode(screen: entry.screen, params: entry.params, presentation: presentation, navigator: navigatorID, parent: parent))
        }
        navigators[navigatorID]!.stack = ids
        return (events, ids)
    }
}
