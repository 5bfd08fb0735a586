/// How a node came on screen.
public struct Presentation: Hashable, Sendable {
    /// The kinds of `presentation.kind` in the state document.
    public enum Kind: String, Sendable, CaseIterable {
        /// The app coordinator: the tree's root, on no stack.
        case app
        /// The root of a base navigator.
        case root
        /// Pushed on a navigation stack.
        case push
        /// Presented modally, at the root of its own navigator.
        case present
        /// The root of a tab's navigator.
        case tab
        /// The root of a split layout's detail navigator.
        case detail
        /// The root of a three-column split view's middle column.
        case supplementary
        /// The root of an overlay flow's navigator, shown full screen at window level over the
        /// session's flow (``CoordinatorTree/overlay``).
        case overlay
    }

    /// The kind.
    public let kind: Kind
    /// The modal style; only for `present`.
    public let style: ModalStyle?

    /// Where a presentation lives, which decides what it covers.
    public enum Level: String, Sendable, CaseIterable {
        /// Shown by the window's container (UIKit forwards these styles there): it covers the tab
        /// bar and every split column.
        case window
        /// Shown inside the presenting tab or column (`currentContext`, `overCurrentContext`): it
        /// leaves and comes back with its tab.
        case context
    }

    /// The level of a presented node; `nil` for every other kind.
    public var level: Level? {
        guard kind == .present else { return nil }
        return style?.level ?? .window
    }

    /// Creates a presentation.
    public init(_ kind: Kind, style: ModalStyle? = nil) {
        self.kind = kind
        self.style = style
    }
}

/// UIKit's modal presentation styles, as `present` accepts them.
public enum ModalStyle: String, Sendable, CaseIterable {
    case automatic
    case fullScreen
    case pageSheet
    case formSheet
    case overFullScreen
    case popover
    case currentContext
    case overCurrentContext
    case custom

    /// The level UIKit shows this style at.
    public var level: Presentation.Level {
        self == .currentContext || self == .overCurrentContext ? .context : .window
    }
}

/// The horizontal size class a session's device reports: a compact split view shows one
/// column, as one stack.
public enum SizeClass: String, Sendable, CaseIterable {
    case compact
    case regular
}

/// The form a tab bar shows in (``CoordinatorTree/tabsForm``).
public enum TabsForm: String, Sendable, CaseIterable {
    /// A bar of tabs at the bottom (compact width, or tabs that do not adapt).
    case tabBar
    /// A sidebar listing the tabs (regular width, tabs declared with `sidebar`).
    case sidebar
}

/// How a session arranges its base navigators.
public enum Layout: String, Sendable, CaseIterable {
    /// One navigation stack (`v0`).
    case stack
    /// A split view: `primary` for the list, `detail` for what was chosen from it.
    case split
}
