public import MinervaJSON

/// Something a navigation operation did that a client may need to react to.
public struct NavigationEvent: Hashable, Sendable {
    /// Why a node left the tree.
    public enum RemovalReason: String, Sendable, CaseIterable {
        case pop, dismiss, setRoot, finish, deepLink, ancestorRemoved
    }

    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The node and its coordinator left the tree.
        case removed(RemovalReason)
        /// The flow at the node ended with a result for its parent.
        case finished(parent: NodeID, result: JSONValue)
    }

    /// Position in the session's event log: 1, 2, 3, …
    public let seq: Int
    /// What happened.
    public let kind: Kind
    /// The node concerned.
    public let node: NodeID
    /// Its screen.
    public let screen: String

    /// Creates an event; operations make them, and stores read them back.
    public init(seq: Int, kind: Kind, node: NodeID, screen: String) {
        self.seq = seq
        self.kind = kind
        self.node = node
        self.screen = screen
    }
}
