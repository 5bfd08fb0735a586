public import MinervaJSON

/// A coordinator: one screen's place in the tree.
public struct Node: Hashable, Sendable {
    /// The node's id.
    public let id: NodeID
    /// The screen it shows, a key of the app description's `screens`.
    public let screen: String
    /// The screen's parameters.
    public internal(set) var params: [String: JSONValue]
    /// How it came on screen.
    public let presentation: Presentation
    /// The navigator whose stack holds it; `nil` only for the app coordinator.
    public let navigator: NavigatorID?
    /// The coordinator that started it; `nil` only for the app coordinator.
    public let parent: NodeID?
    /// The coordinators it started, oldest first.
    public internal(set) var children: [NodeID]
}
