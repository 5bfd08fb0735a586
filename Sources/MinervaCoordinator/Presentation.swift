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
    }

    /// The kind.
    public let kind: Kind
    /// The modal style; only for `present`.
    public let style: ModalStyle?

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
}

/// How a session arranges its base navigators.
public enum Layout: String, Sendable, CaseIterable {
    /// One navigation stack (`v0`).
    case stack
    /// A split view: `primary` for the list, `detail` for what was chosen from it.
    case split
}
