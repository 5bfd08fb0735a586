import MinervaJSON

extension CoordinatorTree {
    /// The node with this wire id, or `404`-class error.
    func node(named text: String) throws(NavigationError) -> Node {
        guard let id = NodeID(text), let node = nodes[id] else { throw .unknownNode(text) }
        return node
    }

    /// The navigator with this wire id, or `404`-class error.
    func navigator(named text: String) throws(NavigationError) -> Navigator {
        guard let navigator = navigators[NavigatorID(text)] else { throw .unknownNavigator(text) }
        return navigator
    }

    /// The node an operation starts from: the named one, else the focus.
    func origin(_ from: String?) throws(NavigationError) -> Node {
        try from.map { text throws(NavigationError) in try self.node(named: text) } ?? self[node: focus]
    }

    /// Refuses the app coordinator as an origin; checked after the screen, as `409` comes after `422`.
    func requireOnStack(_ node: Node, action: String) throws(NavigationError) -> NavigatorID {
        guard let navigator = node.navigator else {
            throw .conflict("cannot \(action) from the app coordinator '\(rootID)'; name a node on a stack")
        }
        return navigator
    }

    /// Checks a screen and its params against the app description.
    /// - Returns: the screen's entry.
    func screenEntry(_ screen: String, params: [String: JSONValue]) throws(NavigationError) -> AppDescription.Screen {
        guard let entry = app.screens[screen] else {
            throw .undeclared(.invalid, "unknown screen \(Excerpt(screen)); the app declares: \(app.screenOrder.joined(separator: ", "))")
        }
        let missing = entry.params.filter { params[$0] == nil || params[$0] == .null }
        guard missing.isEmpty else {
            throw .invalid("screen \(Excerpt(screen)) requires params: \(missing.joined(separator: ", "))")
        }
        return entry
    }

    /// The navigator presented by `navigatorID` and every one presented above it, in order.
    func presentedChain(above navigatorID: NavigatorID) -> [NavigatorID] {
        var chain: [NavigatorID] = []
        var current = self[navigator: navigatorID].presentedNavigator
        while let next = current {
            chain.append(next)
            current = self[navigator: next].presentedNavigator
        }
        return chain
    }
}
