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
    /// What it holds besides its place, boxed: most nodes hold nothing, and cost one word for it.
    @usableFromInline var box: Holdings.Box?

    /// Creates a node.
    public init(
        id: NodeID, screen: String, params: [String: JSONValue], presentation: Presentation, navigator: NavigatorID?, parent: NodeID?,
        children: [NodeID], title: String? = nil, holdings: Holdings = Holdings()
    ) {
        self.id = id
        self.screen = screen
        self.params = params
        self.presentation = presentation
        self.navigator = navigator
        self.parent = parent
        self.children = children
        self.title = title
        self.holdings = holdings
    }

    /// What a node holds besides its place in the tree: its presentation settings, its UI state
    /// and the results flows left on it. A node leaves the tree with all of it.
    public struct Holdings: Hashable, Sendable {
        /// The sheet, anchor and `dismissible` it was presented with, when it has any (never empty).
        public internal(set) var settings: PresentationSettings?
        /// Its UI state, when it has some (never an empty object).
        public internal(set) var ui: [String: JSONValue]?
        /// The results flows left on it, by the flow's screen (never empty).
        public internal(set) var results: [String: FlowResult]?

        /// Holds nothing.
        public init() {}

        /// Whether it holds nothing.
        var isEmpty: Bool { settings == nil && ui == nil && results == nil }

        /// Holdings in a box of their own (an indirect case), so that a node carries one word for them.
        @usableFromInline enum Box: Hashable, Sendable {
            indirect case holding(Holdings)
        }
    }

    /// What the node holds besides its place (see ``Holdings``).
    public internal(set) var holdings: Holdings {
        get {
            guard case .holding(let holdings) = box else { return Holdings() }
            return holdings
        }
        set { box = newValue.isEmpty ? nil : .holding(newValue) }
    }

    /// The sheet, anchor and `dismissible` it was presented with, when it has any.
    @inlinable public var settings: PresentationSettings? {
        guard case .holding(let holdings) = box else { return nil }
        return holdings.settings
    }
    /// Its UI state, when it has some.
    @inlinable public var ui: [String: JSONValue]? {
        guard case .holding(let holdings) = box else { return nil }
        return holdings.ui
    }
    /// The results flows left on it, by the flow's screen.
    @inlinable public var results: [String: FlowResult]? {
        guard case .holding(let holdings) = box else { return nil }
        return holdings.results
    }
}
