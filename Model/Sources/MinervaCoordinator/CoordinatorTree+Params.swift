public import MinervaJSON

extension CoordinatorTree {
    /// Changes a node's params in place (`PATCH …/nodes/{node}/params`): the node stays, with its
    /// id, list and subtree.
    /// - Parameters:
    ///   - node: the node.
    ///   - set: params to set, each one its screen declares.
    ///   - unset: params to remove, each one its screen declares.
    /// - Returns: `paramsChanged`, or nothing when the params are already so.
    /// - Throws: `notFound` for an unknown node; `invalid` for the app coordinator, a param the
    ///   screen does not declare, or unsetting one it requires (every declared param is).
    @discardableResult
    public mutating func updateParams(node: NodeID, set: [String: JSONValue], unset: [String]) throws(NavigationError) -> [NavigationEvent] {
        let target = self[node: node]
        guard target.id != rootID else { throw .invalid("'\(node)' is the app coordinator, which has no params") }
        guard let entry = app.screens[target.screen] else {
            throw .undeclared(.invalid, "'\(node)' shows screen '\(target.screen)', which the app does not declare")
        }
        for name in set.keys.sorted() + unset where !entry.params.contains(name) {
            let declared = entry.params.isEmpty ? "it declares none" : "it declares \(entry.params.joined(separator: ", "))"
            throw .invalid("screen '\(target.screen)' does not declare the param \(Excerpt(name)); \(declared)")
        }
        if let required = unset.first {
            throw .invalid("screen '\(target.screen)' requires the param '\(required)'; set it to another value instead of unsetting it")
        }
        var params = target.params
        for (name, value) in set { params[name] = value }
        _ = try screenEntry(target.screen, params: params)
        return updateParams(of: target.id, to: params)
    }

    /// Gives a node new params in place: `paramsChanged`, or nothing when they are equal.
    mutating func updateParams(of id: NodeID, to params: [String: JSONValue]) -> [NavigationEvent] {
        guard self[node: id].params != params else { return [] }
        self[node: id].params = params
        return [.paramsChanged(node: id, params: params)]
    }
}
