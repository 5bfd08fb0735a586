/// A node came on screen (push, present, set-root, navigate, a deep link, a guard's flow).
public struct NodeAdded: EventChange {
    /// `added`.
    public static let type = "added"
    /// The new node.
    public var node: String
    /// Its screen.
    public var screen: String
    /// Its parameters.
    public var params: Params
    /// The node that started it.
    public var parent: String
    /// The navigator whose stack holds it (a new one for a presented node).
    public var navigator: String
    /// How it came on screen.
    public var presentation: Presentation
    /// For a node that starts a navigator of its own: the presenting navigator.
    public var presentedBy: String?
    /// For a node that starts a navigator of its own: whether that navigator accepts pushes.
    public var embedded: Bool?
    /// Its screen's title, when it declares one.
    public var title: String?
    /// A presented node's sheet.
    public var sheet: Sheet?
    /// A presented popover's anchor.
    public var anchor: Anchor?
    /// `false` when the user may not swipe it away.
    public var dismissible: Bool?

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(
        node: String,
        screen: String,
        params: Params,
        parent: String,
        navigator: String,
        presentation: Presentation,
        presentedBy: String? = nil,
        embedded: Bool? = nil,
        title: String? = nil,
        sheet: Sheet? = nil,
        anchor: Anchor? = nil,
        dismissible: Bool? = nil
    ) {
        self.node = node
        self.screen = screen
        self.params = params
        self.parent = parent
        self.navigator = navigator
        self.presentation = presentation
        self.presentedBy = presentedBy
        self.embedded = embedded
        self.title = title
        self.sheet = sheet
        self.anchor = anchor
        self.dismissible = dismissible
    }
}

/// A node left the screen and the tree.
public struct NodeRemoved: EventChange {
    /// `removed`.
    public static let type = "removed"
    /// The node.
    public var node: String
    /// Its screen.
    public var screen: String
    /// Why it left.
    public var reason: RemovalReason
    /// The navigator whose stack held it.
    public var navigator: String

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, screen: String, reason: RemovalReason, navigator: String) {
        self.node = node
        self.screen = screen
        self.reason = reason
        self.navigator = navigator
    }
}

/// A node's params changed in place (all of them now).
public struct ParamsChanged: EventChange {
    /// `paramsChanged`.
    public static let type = "paramsChanged"
    /// The node.
    public var node: String
    /// All its params now.
    public var params: Params

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, params: Params) {
        self.node = node
        self.params = params
    }
}

/// A shown node's presentation changed: the user moved its sheet to another detent, or whether
/// the user may swipe it away changed. Each member only when it changed.
public struct PresentationChanged: EventChange {
    /// `presentationChanged`.
    public static let type = "presentationChanged"
    /// The node.
    public var node: String
    /// The id of the detent shown now, when it changed.
    public var selected: String?
    /// Whether the user may swipe it away (or back) now, when it changed.
    public var dismissible: Bool?

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, selected: String? = nil, dismissible: Bool? = nil) {
        self.node = node
        self.selected = selected
        self.dismissible = dismissible
    }
}

/// A node's UI state was replaced (all of it now; empty clears it).
public struct UIChanged: EventChange {
    /// `uiChanged`.
    public static let type = "uiChanged"
    /// The node.
    public var node: String
    /// All its UI state now.
    public var ui: [String: JSONValue]

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, ui: [String: JSONValue]) {
        self.node = node
        self.ui = ui
    }
}

/// A node's list was replaced: read the diff with ``MinervaSession/list(of:since:)`` from `from`.
public struct ListChanged: EventChange {
    /// `listChanged`.
    public static let type = "listChanged"
    /// The node.
    public var node: String
    /// Its new list version.
    public var list: Int
    /// The previous version (0 for a first list).
    public var from: Int

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, list: Int, from: Int) {
        self.node = node
        self.list = list
        self.from = from
    }
}
