/// A coordinator of the session's tree: the screen it shows, how it came on screen, the
/// navigator whose stack holds it and the coordinators it started.
public struct Node: Codable, Hashable, Sendable, Identifiable {
    /// Its id (`n0` for the app coordinator, then `n1`, `n2`, …; never reused).
    public var id: String
    /// The screen it shows (for `n0`, the app's name).
    public var screen: String
    /// The screen's title in the session's app version; nil when it declares none.
    public var title: String?
    /// The screen's parameters.
    public var params: Params
    /// How it came on screen.
    public var presentation: Presentation
    /// A presented node's sheet, when it has one.
    public var sheet: Sheet?
    /// A presented popover's anchor, as the client gave it.
    public var anchor: Anchor?
    /// `false` on a presented node the user may not swipe away; nil otherwise.
    public var dismissible: Bool?
    /// Its UI state (a scroll anchor, a draft); nil when it has none.
    public var ui: [String: JSONValue]?
    /// What flows left on it, by the flow's screen, until its client takes them; nil when none.
    public var results: [String: HeldResult]?
    /// The navigator whose stack holds it; nil only for the app coordinator.
    public var navigator: String?
    /// The coordinators it started, oldest first.
    public var children: [Node]
    /// Its list, on nodes that have one.
    public var list: NodeList?

    /// A node (the client reads them from the server; tests and previews make them).
    public init(
        id: String, screen: String, title: String? = nil, params: Params = [:], presentation: Presentation, sheet: Sheet? = nil,
        anchor: Anchor? = nil, dismissible: Bool? = nil, ui: [String: JSONValue]? = nil, results: [String: HeldResult]? = nil,
        navigator: String?, children: [Node] = [], list: NodeList? = nil
    ) {
        self.id = id
        self.screen = screen
        self.title = title
        self.params = params
        self.presentation = presentation
        self.sheet = sheet
        self.anchor = anchor
        self.dismissible = dismissible
        self.ui = ui
        self.results = results
        self.navigator = navigator
        self.children = children
        self.list = list
    }
}

/// A flow's result as its parent holds it, until the parent's client takes it.
public struct HeldResult: Codable, Hashable, Sendable {
    /// How the flow ended.
    public var status: FlowStatus
    /// The value given to `finish`, when not null.
    public var value: JSONValue?
    /// The version whose change wrote it.
    public var version: Int

    /// A held result.
    public init(status: FlowStatus, value: JSONValue? = nil, version: Int) {
        self.status = status
        self.value = value
        self.version = version
    }
}
