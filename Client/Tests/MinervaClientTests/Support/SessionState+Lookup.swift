import MinervaClient

extension SessionState {
    /// The stack of the navigator `id`, bottom first.
    func stack(of id: String) -> [String]? {
        navigators.first { $0.id == id }?.stack
    }

    /// The node `id` of the coordinator tree.
    func node(_ id: String) -> SessionNode? {
        func find(_ node: SessionNode) -> SessionNode? {
            node.id == id ? node : node.children.lazy.compactMap(find).first
        }
        return find(root)
    }

    /// The screen the focused node shows.
    var focusedScreen: String? { node(focus)?.screen }
}
