import OpenAPIRuntime

extension MinervaSession {
    /// Shows `screen` as the app description says it is shown (pushed, presented, or as the
    /// split view's detail), from `node` or the focus.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's parameters.
    ///   - node: the node to navigate from; the focus when nil.
    ///   - sampleLists: whether each node added gets its screen's sample list (the app
    ///     description's `sampleList`) in the same change.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404 for an unknown node, 422 for an unknown screen, missing
    ///   params or a sample list over the server's limits, 409 when the navigation is not
    ///   possible now, 412 when the session moved on.
    @discardableResult
    public func navigate(to screen: String, params: Params = [:], from node: String? = nil, sampleLists: Bool = false) async throws
        -> SessionState
    {
        try await change(.navigate(to: screen, params: params, from: node, sampleLists: sampleLists))
    }

    /// Pushes `screen` on the navigator of `node` (or of the focus).
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's parameters.
    ///   - node: the node to push from; the focus when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (a navigator without a stack, the app coordinator),
    ///   412, 422.
    @discardableResult
    public func push(_ screen: String, params: Params = [:], from node: String? = nil) async throws -> SessionState {
        try await change(.push(screen, params: params, from: node))
    }

    /// Presents `screen` modally from `node` (or the focus), on a navigator of its own.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's parameters.
    ///   - style: the modal style; the screen's own when nil.
    ///   - embedInNavigation: whether the new navigator accepts pushes; the screen's own when nil.
    ///   - node: the node to present from; the focus when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (the navigator already presents a node), 412, 422;
    ///   ``UnsupportedValue`` for a style the server does not take.
    @discardableResult
    public func present(
        _ screen: String, params: Params = [:], style: ModalStyle? = nil, embedInNavigation: Bool? = nil,
        from node: String? = nil
    ) async throws -> SessionState {
        try await change(.present(screen, params: params, style: style, embedInNavigation: embedInNavigation, from: node))
    }

    /// Dismisses a presented node and everything presented above it.
    /// - Parameter node: the root of a presented navigator; the top-most presented node when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (nothing is presented, or `node` is not), 412.
    @discardableResult
    public func dismiss(_ node: String? = nil) async throws -> SessionState {
        try await change(.dismiss(node))
    }

    /// Pops the top of a navigator's stack, or down to a node, or down to the stack's root.
    /// - Parameters:
    ///   - navigator: the navigator; the focus's (or `node`'s) when nil.
    ///   - node: pop everything above this node, which stays.
    ///   - toRoot: pop everything above the stack's root.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (nothing to pop, a root), 412, 422 (`node` with
    ///   `toRoot`, or on another navigator).
    @discardableResult
    public func pop(navigator: String? = nil, to node: String? = nil, toRoot: Bool = false) async throws -> SessionState {
        try await change(.pop(navigator: navigator, to: node, toRoot: toRoot))
    }

    /// Pops exactly `node`, which must be the top of its stack: a pop that names what it removes,
    /// so that a screen another device showed above it is never popped instead.
    /// - Parameter node: the node to pop.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (not the top: another change showed a screen above it;
    ///   `removed`: another change removed it; a root), 412.
    @discardableResult
    public func pop(exactly node: String) async throws -> SessionState {
        try await change(.pop(exactly: node))
    }

    /// Replaces a navigator's whole stack with one screen.
    /// - Parameters:
    ///   - screen: the new root screen.
    ///   - params: its parameters.
    ///   - navigator: the navigator; the focus's when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409, 412, 422.
    @discardableResult
    public func setRoot(_ screen: String, params: Params = [:], navigator: String? = nil) async throws -> SessionState {
        try await change(.setRoot(screen, params: params, navigator: navigator))
    }

    /// Replaces a navigator's whole stack with these screens, bottom first.
    /// - Parameters:
    ///   - stack: the new stack; at least one screen.
    ///   - navigator: the navigator; the focus's when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (a navigator without a stack holds one node), 412, 422.
    @discardableResult
    public func setRoot(stack: [StackEntry], navigator: String? = nil) async throws -> SessionState {
        try await change(.setRoot(stack: stack, navigator: navigator))
    }

    /// Follows a deep link, keeping what is already shown: the longest matching prefix of the
    /// route's steps stays (ids, lists), the rest is shown step by step, all or nothing; a link
    /// to what is shown changes nothing. A link into a flow the session has not reached yet
    /// waits in `pending` and comes with the switch to that flow.
    /// - Parameter url: a path (`/users/42`), a URL with the app's scheme (`demo://users/42`) or
    ///   an `https` URL on one of the app's hosts.
    /// - Returns: the new state (a guarded target waits in `pending` behind its flow).
    /// - Throws: ``MinervaError``: 404 when no route matches, 409 (a step fails, or the route's
    ///   flow comes before the session's), 412, 422.
    @discardableResult
    public func deepLink(_ url: String) async throws -> SessionState {
        try await change(.deepLink(url))
    }

    /// Ends the flow of `node` with a result for its parent; a guard's flow that ends with
    /// `success` sets its flag and shows the target that waited.
    /// - Parameters:
    ///   - node: the node whose flow ends.
    ///   - status: `success` or `cancelled`.
    ///   - value: any JSON value for the parent.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409, 412, 422.
    @discardableResult
    public func finish(_ node: String, status: FlowStatus, value: JSONValue? = nil) async throws -> SessionState {
        try await change(.finish(node, status: status, value: value))
    }

    /// Selects a tab of a tabs app; every tab keeps its own stack.
    /// - Parameter tab: a tab id of the app.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 412, 422 (no such tab).
    @discardableResult
    public func selectTab(_ tab: String) async throws -> SessionState {
        try await change(.selectTab(tab))
    }

    /// Changes a node's params in place (`PATCH …/nodes/{node}/params`): it keeps its id, list
    /// and subtree; equal params change nothing.
    /// - Parameters:
    ///   - node: the node.
    ///   - set: params to set, each one its screen declares.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404 (no such node), 412, 422 (a param the screen does not declare).
    @discardableResult
    public func updateParams(of node: String, set: Params) async throws -> SessionState {
        try await change(.updateParams(of: node, set: set))
    }

    /// Sets and clears session flags, which guards and the app's launch rules read (a change
    /// that makes the rules choose another flow switches to it); `clear` applies before `set`.
    /// - Parameters:
    ///   - set: flags to set.
    ///   - clear: flags to clear.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 412, 422 (an empty flag name).
    @discardableResult
    public func setFlags(set: [String] = [], clear: [String] = []) async throws -> SessionState {
        try await change(.flags(set: set, clear: clear))
    }
}
