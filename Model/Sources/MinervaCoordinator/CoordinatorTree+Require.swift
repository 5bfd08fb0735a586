extension CoordinatorTree {
    /// Checks that a node exists.
    /// - Throws: `notFound` when no node has this wire id.
    public func requireNode(_ id: String) throws(NavigationError) {
        _ = try node(named: id)
    }

    /// Checks that a navigator exists.
    /// - Throws: `notFound` when no navigator has this wire id.
    public func requireNavigator(_ id: String) throws(NavigationError) {
        _ = try navigator(named: id)
    }
}
