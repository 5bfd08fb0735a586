public import MinervaCoordinator
public import MinervaJSON
public import MinervaList

/// A mutation a client asks of its session, read from its request and ready for the core.
public enum SessionCommand: Sendable {
    /// A new child of `from` (default: the focus), pushed on its navigator.
    case push(from: String?, screen: String, params: [String: JSONValue])
    /// A new child of `from`, presented modally at the root of a new navigator, with its sheet,
    /// anchor and `dismissible`.
    case present(
        from: String?, screen: String, params: [String: JSONValue], style: String?, embedInNavigation: Bool?,
        settings: PresentationSettings = PresentationSettings())
    /// Dismisses a presented node (default: the top-most) and everything above it; `interactive`
    /// when the user swiped it away.
    case dismiss(node: String?, interactive: Bool = false)
    /// Pops the top of a stack, down to a node, or to the root; `interactive` when the user
    /// swiped back. With `node`, exactly that node, which must be the top of its stack.
    case pop(navigator: String?, to: String?, toRoot: Bool, interactive: Bool = false, node: String? = nil)
    /// Replaces a navigator's whole stack.
    case setRoot(navigator: String?, stack: [StackEntry<String>])
    /// Shows a screen the way the app description and the layout say (with presentation
    /// settings for one that is presented).
    case navigate(from: String?, screen: String, params: [String: JSONValue], settings: PresentationSettings = PresentationSettings())
    /// Records the device's horizontal size class (`compact` or `regular`).
    case sizeClass(String)
    /// Records which columns a regular-width split view shows (a ``SplitDisplayMode`` by name).
    case displayMode(String)
    /// Moves a presented sheet to another of its detents (the user did), or lets or stops the
    /// user swiping a node away.
    case changePresentation(node: String, selected: String?, dismissible: Bool?)
    /// Follows a deep link, keeping what is shown (or keeping the link for a later flow).
    case deepLink(url: String)
    /// Changes a node's params in place.
    case updateParams(node: String, set: [String: JSONValue], unset: [String])
    /// Ends the flow at a node with a result for its parent.
    case finish(node: String, status: String, value: JSONValue?)
    /// Selects a tab, dismissing a window-level presentation that covers the tab bar when asked.
    case selectTab(String, dismiss: Bool = false)
    /// Takes the result a flow of `screen` left on `node`.
    case consumeResult(node: String, screen: String)
    /// Replaces a node's UI state.
    case putUI(node: String, ui: [String: JSONValue])
    /// Sets and clears flags.
    case flags(set: [String], clear: [String])
    /// Replaces a node's list.
    case putList(node: String, sections: [ListSection])
    /// Changes some of a node's list's cells, by id.
    case patchList(node: String, patch: ListPatch)
    /// Moves the session from one version of the app description to another, when it still runs
    /// `from` and every screen it shows is still there; a no-op otherwise. The core issues it itself when a session is used after
    /// the app changed; no request names it.
    case moveToApp(AppDescription, from: String, to: String)
    /// Runs a command that may add nodes, then puts the app description's sample list of their
    /// screen on each node it added, in the same block (the client asked, with `sampleLists`).
    indirect case withSampleLists(SessionCommand)
    /// Makes an earlier version the current state again (``SessionCore/restoreTarget(of:version:)``).
    case restore(RestoreTarget)

    /// Whether this is a restore.
    public var isRestore: Bool {
        if case .restore = self { return true }
        return false
    }
}
