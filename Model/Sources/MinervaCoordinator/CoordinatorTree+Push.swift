public import MinervaJSON

extension CoordinatorTree {
    /// Pushes a new coordinator for `screen` as a child of `from`, on `from`'s navigator.
    ///
    /// In a split view a push follows `showDetailViewController`: from a column that has a
    /// column after it, it replaces that column's stack instead (its old nodes, and those of the
    /// columns after it, are removed with `setRoot`); from `detail` it pushes on `detail`.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's params; those it declares are required.
    ///   - from: the node it is pushed from; default the focus. Below the top, it still goes on top.
    /// A guarded screen whose flag is missing shows its `otherwise` flow instead, and the push
    /// waits as the pending target.
    /// - Returns: the events caused (removals in split replacement) and the new node's id (the
    ///   flow's when guarded).
    /// - Throws: `notFound` for an unknown `from`, `invalid` for an unknown screen or missing
    ///   params, `conflict` from the app coordinator or onto a presented navigator that is not
    ///   embedded, `covered` for a split column change under a window-level presentation,
    ///   `overlaid` beneath an overlay.
    @discardableResult
    public mutating func push(screen: String, params: [String: JSONValue] = [:], from: NodeID? = nil) throws(NavigationError)
        -> (events: [NavigationEvent], node: NodeID)
    {
        let origin = try origin(from)
        if overlay != nil {
            _ = try screenEntry(screen, params: params)
            try requireAboveOverlay(origin.navigator, action: "push \(Excerpt(screen)) from '\(origin.id)'")
        }
        if let diverted = try divert([AppDescription.Step(screen: screen, params: params, presentation: .push)], as: .push, from: from) {
            return diverted
        }
        return try pushUnguarded(screen: screen, params: params, from: from)
    }

    /// ``push(screen:params:from:)`` past the guards (a guard's own flow, a step already checked).
    mutating func pushUnguarded(screen: String, params: [String: JSONValue], from: NodeID?) throws(NavigationError)
        -> (events: [NavigationEvent], node: NodeID)
    {
        let origin = try origin(from)
        _ = try screenEntry(screen, params: params)
        let navigatorID = try requireOnStack(origin, action: "push")
        let navigator = self[navigator: navigatorID]
        if let column = columnAfter(navigatorID) {
            try requireUncovered(toChange: column)
            let columns = columns
            let emptied = columns[(columns.index(ofKnown: column) + 1)...].flatMap { self[navigator: $0].stack }
            var events = remove(Set(emptied), reason: .setRoot)
            let replaced = replaceStack(of: column, with: [(screen, params)], parent: origin.id, reason: .setRoot)
            events += replaced.events
            return (events, replaced.nodes[0])
        }
        guard navigator.embedded else {
            throw .conflict(
                "navigator '\(navigatorID)' was presented without a navigation stack (embedInNavigation false) and cannot push; present instead")
        }
        let id = makeNode(screen: screen, params: params, presentation: Presentation(.push), navigator: navigatorID, parent: origin.id)
        self[navigator: navigatorID].stack.append(id)
        return ([], id)
    }

    /// The split view's column that a push from `navigatorID` replaces: the next one after a
    /// column, none after `detail` or outside a split view.
    func columnAfter(_ navigatorID: NavigatorID) -> NavigatorID? {
        let columns = columns
        guard let index = columns.firstIndex(of: navigatorID), index + 1 < columns.count else { return nil }
        return columns[index + 1]
    }
}
