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
    ///   - settings: the sheet (for sheet styles and popovers), the popover's anchor (required
    ///     for `popover`) and whether the user may swipe it away; the screen's sheet and
    ///     `dismissible` stand for what is not given.
    /// A guarded screen whose flag is missing shows its `otherwise` flow instead, and the
    /// present waits as the pending target (with its style and embedding; its settings are the
    /// screen's when it is shown).
    /// - Returns: the events caused (none) and the new node's id (the flow's when guarded).
    /// - Throws: `notFound` for an unknown `from`, `invalid` for an unknown screen or missing
    ///   params, `conflict` from the app coordinator or when the navigator already presents;
    ///   `not_visible` from a tab that is not selected, `covered` under another navigator's
    ///   window-level presentation, `overlaid` beneath an overlay.
    @discardableResult
    public mutating func present(
        screen: String, params: [String: JSONValue] = [:], from: NodeID? = nil, style: ModalStyle? = nil,
        embedInNavigation: Bool? = nil, settings: PresentationSettings = PresentationSettings()
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        let origin = try origin(from)
        if overlay != nil {
            _ = try screenEntry(screen, params: params)
            try requireAboveOverlay(origin.navigator, action: "present \(Excerpt(screen)) from '\(origin.id)'")
        }
        let step = AppDescription.Step(screen: screen, params: params, presentation: .present, style: style, embedInNavigation: embedInNavigation)
        if let diverted = try divert([step], as: .present, from: from) { return diverted }
        return try presentUnguarded(
            screen: screen, params: params, from: from, style: style, embedInNavigation: embedInNavigation, settings: settings, requested: true)
    }

    /// ``present(screen:params:from:style:embedInNavigation:settings:)`` past the guards (a
    /// guard's own flow, a step already checked).
    /// - Parameter requested: whether a client asked for it (a popover then needs an anchor; one
    ///   a deep link or a resumed target shows has none to give).
    mutating func presentUnguarded(
        screen: String, params: [String: JSONValue], from: NodeID?, style: ModalStyle?, embedInNavigation: Bool?,
        settings: PresentationSettings = PresentationSettings(), requested: Bool = false
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        let origin = try origin(from)
        let entry = try screenEntry(screen, params: params)
        let modalStyle = style ?? entry.style ?? .automatic
        let effective = try Self.settings(settings, for: entry, style: modalStyle, requested: requested)
        let presentingID = try requireOnStack(origin, action: "present")
        if let existing = self[navigator: presentingID].presentedNavigator {
            let presentedNode = self[navigator: existing].stack[0]
            throw .conflict("navigator '\(presentingID)' already presents '\(presentedNode)'; dismiss it first")
        }
        try requireVisible(presentingID, toPresent: screen)
        let navigatorID = makeNavigatorID()
        addNavigator(
            Navigator(
                id: navigatorID, stack: [], presentedNavigator: nil, parent: presentingID,
                embedded: embedInNavigation ?? entry.embedInNavigation ?? false, role: .presented(modalStyle)))
        let id = makeNode(
            screen: screen, params: params, presentation: Presentation(.present, style: modalStyle), navigator: navigatorID,
            parent: origin.id)
        self[navigator: navigatorID].stack.append(id)
        self[navigator: presentingID].presentedNavigator = navigatorID
        if !effective.isEmpty { self[node: id].holdings.settings = effective }
        return ([], id)
    }

    /// The settings a presentation ends up with: those given, else the screen's sheet (when the
    /// style takes one) and `dismissible`.
    /// - Throws: `invalid` for a sheet on a style that is no sheet, a sheet whose detents do not
    ///   hold together, an anchor on a style that is no popover, or a popover a client asked for
    ///   without an anchor.
    static func settings(
        _ given: PresentationSettings, for entry: AppDescription.Screen, style: ModalStyle, requested: Bool
    ) throws(NavigationError) -> PresentationSettings {
        var result = PresentationSettings(dismissible: given.dismissible ?? entry.dismissible)
        if let sheet = given.sheet {
            guard style.takesSheet else {
                throw .invalid("'sheet' is for the styles automatic, pageSheet, formSheet and popover; this present's style is \(style.rawValue)")
            }
            if let problem = sheet.problem { throw .invalid("sheet: \(problem)") }
            result.sheet = sheet
        } else if style.takesSheet {
            result.sheet = entry.sheet
        }
        if let anchor = given.anchor {
            guard style == .popover else { throw .invalid("'anchor' is for style popover; this present's style is \(style.rawValue)") }
            result.anchor = anchor
        } else if style == .popover, requested {
            throw .invalid(
                "a popover needs an 'anchor': {\"item\": \"<cell id>\"} or {\"element\": \"<name>\", \"rect\": [x, y, width, height]} "
                    + "(where it points; compact devices show it as a sheet)")
        }
        return result
    }
}
