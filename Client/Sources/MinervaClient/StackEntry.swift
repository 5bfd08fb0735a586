/// An entry of a stack that ``MinervaSession/setRoot(stack:navigator:)`` sets: a new node for a
/// screen, or a node already on that stack, kept (its id, params, list and subtree).
public struct StackEntry: Codable, Hashable, Sendable {
    /// The screen of a new node.
    public var screen: String?
    /// The new node's params.
    public var params: Params?
    /// A node already on the stack, kept.
    public var node: String?

    /// A new node for `screen`.
    public init(screen: String, params: Params = [:]) {
        self.screen = screen
        self.params = params.isEmpty ? nil : params
    }

    /// A node already on the stack, kept at its new place.
    public init(node: String) {
        self.node = node
    }
}
