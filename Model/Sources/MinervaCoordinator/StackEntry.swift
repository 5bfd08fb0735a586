public import MinervaJSON

/// One entry of a `set-root` stack: a new node for a screen, or a node already on that stack,
/// kept (its id, params, list and subtree) at its new place, as UIKit's `setViewControllers`
/// keeps the controllers that stay.
public enum StackEntry: Sendable, Equatable {
    /// A new node for `screen`.
    case screen(String, params: [String: JSONValue])
    /// The node with this id, already on the stack.
    case node(String)
}
