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
    /// Its screen's title in the app the session runs, when the screen declares one (kept on the
    /// node, so that documents and events write it without looking the screen up).
    public internal(set) var title: String?

    /// Creates a node.
    public init(
        id: NodeID, screen: String, params: [String: JSONValue], presentation: Presentation, navigator: NavigatorID?, parent: NodeID?,
        children: [NodeID], title: String? = nil
    ) {
        self.id = id
        self.screen = screen
        self.params = params
        self.presentation = presentation
        self.navigator = navigator
        self.parent = parent
        self.children = children
        self.title = title
    }
}
