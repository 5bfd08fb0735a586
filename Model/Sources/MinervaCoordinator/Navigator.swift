/// A navigation stack, and the modal it may present.
public struct Navigator: Hashable, Sendable {
    /// What a navigator is for, which decides the presentation kind of its root.
    public enum Role: Hashable, Sendable {
        /// A navigator of the layout itself (`v0`, `primary`, `detail`); its root has this kind.
        case base(rootKind: Presentation.Kind)
        /// A navigator made by `present`, with the style it was presented in.
        case presented(ModalStyle)
    }

    /// The navigator's id.
    public let id: NavigatorID
    /// Node ids, bottom first.
    public internal(set) var stack: [NodeID]
    /// The navigator this one presents, if any.
    public internal(set) var presentedNavigator: NavigatorID?
    /// The presenting navigator; `nil` for a base navigator.
    public let parent: NavigatorID?
    /// Whether it accepts pushes.
    public let embedded: Bool
    /// What it is for.
    public let role: Role

    /// The kind the bottom node of this stack takes.
    public var rootPresentation: Presentation {
        switch role {
        case .base(let kind): Presentation(kind)
        case .presented(let style): Presentation(.present, style: style)
        }
    }

    /// Whether this is a base navigator of the layout.
    public var isBase: Bool { parent == nil }

    /// Whether it is presented at window level (every style but `currentContext` and
    /// `overCurrentContext`), or is an overlay's: UIKit shows it over the tab bar and every column.
    var coversWindow: Bool {
        switch role {
        case .presented(let style): style.level == .window
        case .base(let kind): kind == .overlay
        }
    }
}
