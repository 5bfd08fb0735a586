extension CoordinatorTree {
    /// Dismisses a presented node with everything presented above it.
    /// - Parameter node: a presented node (the root of a presented navigator); default the top-most one.
    /// - Returns: the `removed` events, reason `dismiss`, top-most first.
    /// - Throws: `notFound` for an unknown node, `conflict` when it is not presented or nothing is.
    @discardableResult
    public mutating func dismiss(node: String? = nil) throws(NavigationError) -> [NavigationEvent] {
        let navigatorID: NavigatorID
        if let node {
            let target = try self.node(named: node)
            guard let ownNavigator = target.navigator, let navigator = navigators[ownNavigator], !navigator.isBase,
                navigator.stack.first == target.id
            else {
                throw .conflict("node '\(node)' is not presented; only the root of a presented navigator can be dismissed")
            }
            navigatorID = ownNavigator
        } else {
            let top = nodes[focus]!.navigator!
            guard !navigators[top]!.isBase else { throw .conflict("nothing is presented") }
            navigatorID = top
        }
        var targets = Set(navigators[navigatorID]!.stack)
        for above in presentedChain(above: navigatorID) {
            targets.formUnion(navigators[above]!.stack)
        }
        return remove(targets, reason: .dismiss)
    }
}
