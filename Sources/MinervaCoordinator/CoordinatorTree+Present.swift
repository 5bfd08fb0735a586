public import MinervaJSON

extension CoordinatorTree {
    /// Presents a new coordinator for `screen` modally, at the root of a new navigator
    /// presented by `from`'s navigator.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's params; those it declares are required.
    ///   - from: the presenting node; default the focus.
    ///   - style: the modal style; default the screen's, else `automatic`.
    ///   - embedInNavigation: whether the new navigator accepts pushes; default the screen's, else `false`.
    /// A guarded screen whose flag is missing shows its `otherwise` flow instead, and the
    /// present waits as the pending target.
    /// - Returns: the events caused (none) and the new node's id (the flow's when guarded).
    /// - Throws: `notFound` for an unknown `from`, `invalid` for an unknown screen or missing
    ///   params, `conflict` from the app coordinator or when the navigator already presents;
    ///   `not_visible` from a tab that is not selected, `covered` under another navigator's
    ///   window-level presentation.
    @discardableResult
    public mutating func present(
        screen: String, params: [String: JSONValue] = [:], from: String? = nil, style: ModalStyle? = nil,
        embedInNavigation: Bool? = nil
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        _ = try origin(from)
        let step = AppDescription.Step(screen: screen, params: params, presentation: .present, style: style, embedInNavigation: embedInNavigation)
        if let diverted = try divert([step], as: .present, from: from) { return diverted }
        return try presentUnguarded(screen: screen, params: params, from: from, style: style, embedInNavigation: embedInNavigation)
    }

    /// ``present(screen:params:from:style:embedInNavigation:)`` past the guards (a guard's own
    /// flow, a step already checked).
    mutating func presentUnguarded(
        screen: String, params: [String: JSONValue], from: String?, style: ModalStyle?, embedInNavigation: Bool?
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        let origin = try origin(from)
        let entry = try screenEntry(screen, params: params)
        let presentingID = try requireOnStack(origin, action: "present")
        if let existing = navigators[presentingID]!.presentedNavigator {
            let presentedNode = navigators[existing]!.stack.first!
            throw .conflict("navigator '\(presentingID)' already presents '\(presentedNode)'; dismiss it first")
        }
        try requireVisible(presentingID, toPresent: screen)
        let modalStyle = style ?? entry.style ?? .automatic
        let navigatorID = makeNavigatorID()
        addNavigator(
            Navigator(
                id: navigatorID, stack: [], presentedNavigator: nil, parent: presentingID,
                embedded: embedInNavigation ?? entry.embedInNavigation ?? false, role: .presented(modalStyle)))
        let id = makeNode(
            screen: screen, params: params, presentation: Presentation(.present, style: modalStyle), navigator: navigatorID,
            parent: origin.id)
        navigators[navigatorID]!.stack.append(id)
        navigators[presentingID]!.presentedNavigator = navigatorID
        return ([], id)
    }
}
