extension SessionState {
    /// The node with this id, anywhere in the tree; nil when the session shows none.
    public func node(_ id: String) -> Node? {
        root.descendant(id)
    }

    /// The navigator with this id; nil when there is none.
    public func navigator(_ id: String) -> Navigator? {
        navigators.first { $0.id == id }
    }

    /// The nodes on a navigator's stack, bottom first (what `UINavigationController`'s
    /// `viewControllers` shows); empty for an unknown navigator.
    public func stack(of navigator: String) -> [Node] {
        self.navigator(navigator)?.stack.compactMap(node) ?? []
    }

    /// The node in focus: the top-most visible one.
    public var focusedNode: Node? { node(focus) }

    /// The navigator that `navigator` presents (whose root is its `presented` node), if any:
    /// follow it from a base navigator to show each modal over the one below.
    public func navigator(presentedBy navigator: String) -> Navigator? {
        guard let presented = self.navigator(navigator)?.presented, let id = node(presented)?.navigator else { return nil }
        return self.navigator(id)
    }
}

extension Tabs {
    /// The selected tab's navigator (`tab:<id>`).
    public var selectedNavigator: String? {
        items.first { $0.id == selected }?.navigator
    }
}

extension Node {
    /// This node or one below it with this id.
    func descendant(_ id: String) -> Node? {
        if self.id == id { return self }
        for child in children {
            if let found = child.descendant(id) { return found }
        }
        return nil
    }
}
