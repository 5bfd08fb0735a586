import MinervaJSON

extension CoordinatorTree {
    /// The node a wire id names: how an id from a request becomes a handle of this tree. A
    /// command's ids are resolved once, at its edge (``SessionCommand``'s step), before any
    /// operation runs; the operations take handles.
    /// - Throws: `conflict` (code `removed`) for a node the tree made and removed since (its
    ///   number is below the counter, ``IDCounters``), `notFound` for an id it never made.
    public func resolve(node text: String) throws(NavigationError) -> NodeID {
        guard let id = NodeID(text) else { throw .unknownNode(text) }
        guard nodes[id] != nil else {
            throw id.number < nextNodeNumber ? .removed("node", text) : .unknownNode(text)
        }
        return id
    }

    /// The navigator a wire id names (`v1`, `primary`, `tab:home`).
    /// - Throws: `conflict` (code `removed`) for a presented navigator the tree made and removed
    ///   since, `notFound` for any other id it does not have.
    public func resolve(navigator text: String) throws(NavigationError) -> NavigatorID {
        let id = NavigatorID(text)
        guard navigators[id] != nil else {
            if let number = id.number, number >= 1, number < nextNavigatorNumber, String(number) == text.dropFirst() {
                throw .removed("navigator", text)
            }
            throw .unknownNavigator(text)
        }
        return id
    }

    /// The node an operation starts from: the given one, else the focus.
    /// - Throws: `notFound` when an earlier step of the same operation removed it (a guard's
    ///   resumed target whose origin left, say).
    func origin(_ from: NodeID?) throws(NavigationError) -> Node {
        guard let from else { return self[node: focus] }
        guard let node = nodes[from] else { throw .unknownNode(from.description) }
        return node
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
