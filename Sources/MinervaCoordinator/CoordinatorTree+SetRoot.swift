public import MinervaJSON

extension CoordinatorTree {
    /// Replaces a navigator's whole stack with new nodes; the old ones leave with reason `setRoot`.
    ///
    /// The new nodes are siblings: children of the app coordinator for a base navigator, of the
    /// presenting node for a presented one. The first takes the stack's root kind, the rest `push`.
    /// - Parameters:
    ///   - navigator: the navigator; default the focus's.
    ///   - stack: the screens and params, bottom first; at least one.
    /// - Returns: the events and the new nodes' ids.
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
        let parent = target.isBase ? rootID : nodes[target.stack[0]]!.parent!
        let (events, ids) = replaceStack(of: navigatorID, with: stack, parent: parent, reason: .setRoot)
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
