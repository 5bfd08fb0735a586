/// What a session keeps for later, in one slot: a guarded target waiting for its `otherwise`
/// flow to finish, or a deep link waiting for the flow it belongs to.
public struct Pending: Codable, Hashable, Sendable {
    /// `navigate`, `push`, `present` or `setRoot` for a guarded target; `deepLink` for a link.
    public var operation: PendingOperation
    /// For a guarded target, the node of the `otherwise` flow; for a deep link, the name of the
    /// flow it waits for.
    public var flow: String
    /// A guarded target's steps.
    public var steps: [Step]?
    /// The navigator a `setRoot` fills.
    public var navigator: String?
    /// Whether a `setRoot` replaces the whole stack.
    public var replacesStack: Bool?
    /// A pending deep link as it was given.
    public var url: String?

    /// A pending target.
    public init(
        operation: PendingOperation, flow: String, steps: [Step]? = nil, navigator: String? = nil, replacesStack: Bool? = nil,
        url: String? = nil
    ) {
        self.operation = operation
        self.flow = flow
        self.steps = steps
        self.navigator = navigator
        self.replacesStack = replacesStack
        self.url = url
    }
}

/// One screen to show: of a pending target or of a route.
public struct Step: Codable, Hashable, Sendable {
    /// The screen.
    public var screen: String
    /// Its parameters.
    public var params: Params
    /// `push` or `present`, when the step overrides the screen's own.
    public var presentation: PresentationMode?
    /// The modal style, when the step overrides the screen's own.
    public var style: ModalStyle?
    /// Whether a presented step gets a navigation stack, when the step overrides the screen's own.
    public var embedInNavigation: Bool?
    /// In a route: a deep link replaces a node that matches this step instead of keeping it.
    public var fresh: Bool?

    /// A step.
    public init(
        screen: String, params: Params = [:], presentation: PresentationMode? = nil, style: ModalStyle? = nil,
        embedInNavigation: Bool? = nil, fresh: Bool? = nil
    ) {
        self.screen = screen
        self.params = params
        self.presentation = presentation
        self.style = style
        self.embedInNavigation = embedInNavigation
        self.fresh = fresh
    }
}
