import OpenAPIRuntime

extension MinervaSession {
    /// Presents `screen` modally with presentation settings: a sheet's detents, a popover's
    /// anchor (required for a popover), and whether the user may swipe it away.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's parameters.
    ///   - style: the modal style; the screen's own when nil.
    ///   - sheet: the detents; the screen's own when nil.
    ///   - anchor: where a popover points.
    ///   - dismissible: `false` when the user may not swipe it away (`isModalInPresentation`).
    ///   - node: the node to present from; the focus when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (`not_visible`, `covered`, already presenting), 412,
    ///   422 (a popover without anchor, detents that do not hold together).
    @discardableResult
    public func present(
        _ screen: String, params: Params = [:], style: ModalStyle? = nil, sheet: Sheet?, anchor: Anchor? = nil,
        dismissible: Bool? = nil, from node: String? = nil
    ) async throws -> SessionState {
        try await change(.present(screen, params: params, style: style, sheet: sheet, anchor: anchor, dismissible: dismissible, from: node))
    }

    /// Reports that the user swiped a presented node away, once the swipe completed: call it from
    /// `UIAdaptivePresentationControllerDelegate.presentationControllerDidDismiss(_:)` (not from
    /// `…WillDismiss`, which a cancelled swipe also calls). The flow is cancelled for its parent
    /// with `"interactive": true`. Never call it for a node whose `dismissible` is false: set
    /// `isModalInPresentation` on its controller so the user cannot.
    /// ```swift
    /// func presentationControllerDidDismiss(_ controller: UIPresentationController) {
    ///     Task { try await session.reportDismissal(of: node(for: controller.presentedViewController)) }
    /// }
    /// ```
    /// - Parameter node: the presented node (the root of its navigator) the user swiped away.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (something is presented above it, or `not_dismissible`), 412.
    @discardableResult
    public func reportDismissal(of node: String) async throws -> SessionState {
        try await change(.dismiss(node, interactive: true))
    }

    /// Reports that the user swiped back (or tapped Back) and the pop completed: call it from
    /// `UINavigationControllerDelegate.navigationController(_:didShow:animated:)` when the shown
    /// controller is below the one the state has on top, after checking
    /// `transitionCoordinator?.isCancelled` is false. One screen, the top of a shown stack; in a
    /// compact split view, the top of `compactStack`, whichever column holds it.
    /// ```swift
    /// func navigationController(_ nav: UINavigationController, didShow shown: UIViewController, animated: Bool) {
    ///     guard let top = state.navigators.first(where: { $0.id == navigatorID })?.stack.last,
    ///           node(for: shown) != top else { return }
    ///     Task { try await session.reportPop(navigator: navigatorID) }
    /// }
    /// ```
    /// - Parameter navigator: the navigator whose top the user popped; the focus's when nil.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (not on top, a root, or `not_dismissible`), 412.
    @discardableResult
    public func reportPop(navigator: String? = nil) async throws -> SessionState {
        try await change(.pop(navigator: navigator, interactive: true))
    }

    /// Reports that the user moved a sheet to another detent: call it from
    /// `UISheetPresentationControllerDelegate.sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)`.
    /// An `If-Match` from before it still matches.
    /// - Parameters:
    ///   - detent: the detent's id (`medium`, `large`, or the app's own).
    ///   - node: the presented node.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (not a sheet with detents), 412, 422 (a detent it does not list).
    @discardableResult
    public func selectDetent(_ detent: String, of node: String) async throws -> SessionState {
        try await change(.selectDetent(detent, of: node))
    }

    /// Lets or stops the user swiping a shown node away (a presented one, with its navigator) or
    /// back (a pushed one): set `false` when paying starts in a cart sheet, and set
    /// `isModalInPresentation` from the node's `dismissible` as the state says it. A presented
    /// navigator cannot be swiped away while any screen on its stack says `false`.
    /// - Parameters:
    ///   - dismissible: whether the user may.
    ///   - node: the node.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (a base or tab root), 412.
    @discardableResult
    public func setDismissible(_ dismissible: Bool, of node: String) async throws -> SessionState {
        try await change(.setDismissible(dismissible, of: node))
    }

    /// Reports the device's horizontal size class (from `traitCollectionDidChange` or
    /// `registerForTraitChanges`): a compact split view shows `compactStack` as one stack.
    /// - Parameter horizontal: `compact` or `regular`.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 412, 422 (a size class the server does not know).
    @discardableResult
    public func setSizeClass(_ horizontal: SizeClass) async throws -> SessionState {
        try await change(.sizeClass(horizontal))
    }

    /// Says which columns the split view shows at regular width (the user hid or showed the
    /// sidebar: from `splitViewController(_:willChangeTo:)`). Every column keeps its stack.
    /// - Parameter mode: a mode of two columns beside `detail` needs three columns.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 412, 422 (no split view, a `two…` mode with two columns, or a
    ///   mode the server does not know).
    @discardableResult
    public func setDisplayMode(_ mode: SplitDisplayMode) async throws -> SessionState {
        try await change(.displayMode(mode))
    }

    /// Selects a tab, first dismissing a window-level presentation that covers the tab bar when
    /// `dismiss` is true (without it, such a cover makes the request `409 covered`).
    /// - Parameters:
    ///   - tab: a tab id of the flow.
    ///   - dismiss: whether a window-level cover is dismissed first, in the same change.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 409 (`covered`), 412, 422 (no such tab).
    @discardableResult
    public func selectTab(_ tab: String, dismiss: Bool) async throws -> SessionState {
        try await change(.selectTab(tab, dismiss: dismiss))
    }

    /// Keeps a node's UI state (a scroll anchor, a selection, a draft): debounce it, last writer
    /// wins; an `If-Match` from before it still matches, so scrolling never fails a tap.
    /// - Parameters:
    ///   - ui: the node's whole UI state; empty clears it.
    ///   - node: the node.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404, 409 (the app coordinator), 412, 422 (over `--max-ui-bytes`).
    @discardableResult
    public func setUI(_ ui: [String: JSONValue], of node: String) async throws -> SessionState {
        try await change(.setUI(ui, of: node))
    }

    /// Takes the result a flow of `screen` left on `node` (its `results`), once the app handled it.
    /// - Parameters:
    ///   - screen: the flow's screen.
    ///   - node: the parent that holds it.
    /// - Returns: the new state.
    /// - Throws: ``MinervaError``: 404 (no such node, or no result of that screen), 412.
    @discardableResult
    public func takeResult(of screen: String, from node: String) async throws -> SessionState {
        try await change(.takeResult(of: screen, from: node))
    }
}
