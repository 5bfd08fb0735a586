import MinervaClient

extension SessionState {
    /// The node ids on the stack of the navigator `id`, bottom first; nil for no such navigator.
    func stackIDs(of id: String) -> [String]? {
        navigator(id)?.stack
    }

    /// The screen the focused node shows.
    var focusedScreen: String? { focusedNode?.screen }
}
