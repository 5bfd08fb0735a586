extension CoordinatorTree {
    /// What `pop` removes from a stack.
    public enum PopTarget: Hashable, Sendable {
        /// The top node.
        case top
        /// Everything above this node.
        case to(NodeID)
        /// Exactly this node, which must be the top of its stack: a pop that names what it
        /// removes, so that a node another change pushed above it is never popped instead.
        case node(NodeID)
        /// Everything above the stack's root.
        case root
    }

    /// Pops nodes off a navigation stack; they leave the tree with their subtrees.
    /// - Parameters:
    ///   - navigator: the stack's navigator; default the focus's (or, with `.to`, that node's).
    ///   - target: how far to pop.
    ///   - interactive: whether the user did it (a back swipe the client reports once it
    ///     completed): only the top of a shown stack that presents nothing.
    /// - Returns: the `removed` events, reason `pop`, top-most first (and the `finished` events of
    ///   flows they cancel).
    /// - Throws: `invalid` when `.to` or `.node` names a node of another navigator, `conflict`
    ///   when `.node` is not the top of its stack, when nothing would be removed or a root would be (but
    ///   the root of a split view's column after `primary`: popping it empties the column, and
    ///   the focus moves to the column before it).
    @discardableResult
    public mutating func pop(navigator: NavigatorID? = nil, target: PopTarget = .top, interactive: Bool = false) throws(NavigationError)
        -> [NavigationEvent]
    {
        var navigatorID = navigator
        var keep: Int
        if case .node(let id) = target {
            let node = self[node: id]
            guard let own = node.navigator else { throw .conflict("cannot pop the app coordinator '\(id)'; it is on no stack") }
            if let navigatorID, navigatorID != own { throw .invalid("node '\(id)' is not on navigator '\(navigatorID)'") }
            let stack = self[navigator: own].stack
            guard stack.last == id else {
                throw .conflict(
                    "'\(id)' is not the top of '\(own)': '\(stack[stack.count - 1])' is above it (another change showed it); "
                        + "pop that one by its own id first, or read the state")
            }
            navigatorID = own
            keep = stack.count - 1
        } else if case .to(let id) = target {
            let node = self[node: id]
            if let navigatorID, navigatorID != node.navigator {
                throw .invalid("node '\(id)' is not on navigator '\(navigatorID)'")
            }
            guard let own = node.navigator else {
                throw .conflict("cannot pop to the app coordinator '\(id)'; it is on no stack")
            }
            navigatorID = own
            keep = self[navigator: own].stack.index(ofKnown: node.id) + 1
        } else {
            keep = target == .root ? 1 : 0
        }
        let id = navigatorID ?? self[node: focus].stackNavigator
        let stack = self[navigator: id].stack
        if target == .top { keep = stack.count - 1 }
        guard !stack.isEmpty else { throw .conflict("navigator '\(id)' is empty; there is nothing to pop") }
        try requireAboveOverlay(id, action: "pop navigator '\(id)'")
        // A split view's column after `primary` may be emptied ("back to the sidebar").
        let emptiable = columns.contains(id) && id != .primary
        guard keep >= 1 || emptiable else {
            throw .conflict(
                "'\(stack[0])' is the root of navigator '\(id)' and cannot be popped"
                    + (self[navigator: id].isBase ? "" : "; dismiss it instead"))
        }
        guard keep < stack.count else { throw .conflict("nothing to pop: '\(stack[keep - 1])' is already the top of '\(id)'") }
        if interactive {
            guard keep == stack.count - 1 else {
                throw .conflict("a back swipe pops one screen: 'interactive' goes with popping the top only, not with 'to' or 'toRoot'")
            }
            try requireOnTop(id, action: "popped interactively")
            let top = self[node: stack[stack.count - 1]]
            guard isDismissible(top) else {
                throw .notDismissible(
                    "'\(top.id)' says it cannot be swiped back (dismissible: false); a client does not let the user do it, "
                        + "and pops it without 'interactive' when the app decides to")
            }
        }
        return remove(Set(stack[keep...]), reason: .pop, interactive: interactive)
    }
}
