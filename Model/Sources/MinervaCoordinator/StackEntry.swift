public import MinervaJSON

/// One entry of a `set-root` stack: a new node for a screen, or a node already on that stack,
/// kept (its id, params, list and subtree) at its new place, as UIKit's `setViewControllers`
/// keeps the controllers that stay.
///
/// A command holds a kept node by its wire id (`StackEntry<String>`); the tree's `setRoot` takes
/// it by handle (`StackEntry<NodeID>`, see ``resolved(in:)``).
public enum StackEntry<NodeName: Sendable & Equatable>: Sendable, Equatable {
    /// A new node for `screen`.
    case screen(String, params: [String: JSONValue])
    /// The node with this id, already on the stack.
    case node(NodeName)
}

extension StackEntry<String> {
    /// The entry with its node resolved in `tree`.
    /// - Throws: `notFound` when the tree has no node of that id.
    public func resolved(in tree: CoordinatorTree) throws(NavigationError) -> StackEntry<NodeID> {
        switch self {
        case .screen(let screen, let params): .screen(screen, params: params)
        case .node(let text): .node(try tree.resolve(node: text))
        }
    }
}
