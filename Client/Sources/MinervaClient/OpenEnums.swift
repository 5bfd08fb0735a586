/// The strings of `openapi.yaml` that name one of a known set of values — a removal reason, a
/// presentation kind, a modal style, … — which later releases may add to. Each is a struct with a
/// constant for every value the contract lists (its `x-extensible-enum`), and keeps a value it
/// does not know as it came. Apps use them by their own names (`ModalStyle`, `RemovalReason`, …).
public enum OpenEnums {
    /// Why a node left the screen.
    public struct RemovalReason: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Popped off its stack.
        public static let pop = Self(rawValue: "pop")
        /// Dismissed with what it presented.
        public static let dismiss = Self(rawValue: "dismiss")
        /// Replaced by a set-root.
        public static let setRoot = Self(rawValue: "setRoot")
        /// Its flow finished.
        public static let finish = Self(rawValue: "finish")
        /// Replaced by a deep link.
        public static let deepLink = Self(rawValue: "deepLink")
        /// An ancestor left.
        public static let ancestorRemoved = Self(rawValue: "ancestorRemoved")
        /// The session went back to an earlier version.
        public static let restore = Self(rawValue: "restore")
        /// The session switched root flows.
        public static let flowChanged = Self(rawValue: "flowChanged")
        /// A collapse to compact dismissed what a column compact does not show presented.
        public static let sizeClass = Self(rawValue: "sizeClass")
    }

    /// How a node came on screen.
    public struct PresentationKind: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The app coordinator `n0`.
        public static let app = Self(rawValue: "app")
        /// The root of a base navigator.
        public static let root = Self(rawValue: "root")
        /// Pushed onto a stack.
        public static let push = Self(rawValue: "push")
        /// The root of a presented navigator.
        public static let present = Self(rawValue: "present")
        /// The root of a tab's navigator.
        public static let tab = Self(rawValue: "tab")
        /// The root of the split layout's detail navigator.
        public static let detail = Self(rawValue: "detail")
        /// The root of a three-column split view's middle column.
        public static let supplementary = Self(rawValue: "supplementary")
        /// The root of an overlay flow's navigator `overlay`, full screen over the session's flow
        /// (``SessionState/overlay``).
        public static let overlay = Self(rawValue: "overlay")
    }

    /// A modal presentation style (UIKit's `UIModalPresentationStyle`).
    public struct ModalStyle: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// UIKit's `.automatic`.
        public static let automatic = Self(rawValue: "automatic")
        /// UIKit's `.fullScreen`.
        public static let fullScreen = Self(rawValue: "fullScreen")
        /// UIKit's `.pageSheet`.
        public static let pageSheet = Self(rawValue: "pageSheet")
        /// UIKit's `.formSheet`.
        public static let formSheet = Self(rawValue: "formSheet")
        /// UIKit's `.overFullScreen`.
        public static let overFullScreen = Self(rawValue: "overFullScreen")
        /// UIKit's `.popover`.
        public static let popover = Self(rawValue: "popover")
        /// UIKit's `.currentContext`.
        public static let currentContext = Self(rawValue: "currentContext")
        /// UIKit's `.overCurrentContext`.
        public static let overCurrentContext = Self(rawValue: "overCurrentContext")
        /// UIKit's `.custom`.
        public static let custom = Self(rawValue: "custom")
    }

    /// How the session's base navigators are laid out.
    public struct Layout: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// One base navigator.
        public static let stack = Self(rawValue: "stack")
        /// A split view: `primary` (`supplementary` with three columns) and `detail`.
        public static let split = Self(rawValue: "split")
    }

    /// What resumes when a guard's flow finishes with `success`.
    public struct PendingOperation: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A navigate (also a deep link's steps).
        public static let navigate = Self(rawValue: "navigate")
        /// A push or present of the one step.
        public static let push = Self(rawValue: "push")
        /// A present of the one step.
        public static let present = Self(rawValue: "present")
        /// A set-root of the navigator.
        public static let setRoot = Self(rawValue: "setRoot")
        /// A select-tab of the navigator's tab, whose root is guarded (a deep link's steps follow).
        public static let selectTab = Self(rawValue: "selectTab")
        /// A deep link waiting for its root flow.
        public static let deepLink = Self(rawValue: "deepLink")
    }

    /// How a screen comes on screen by default.
    public struct PresentationMode: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Pushed onto the focused stack.
        public static let push = Self(rawValue: "push")
        /// Presented, with a navigator of its own.
        public static let present = Self(rawValue: "present")
    }

    /// How a flow ended.
    public struct FlowStatus: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Finished with a result.
        public static let success = Self(rawValue: "success")
        /// Left without a result.
        public static let cancelled = Self(rawValue: "cancelled")
    }

    /// Where a presented node lives, which decides what it covers.
    public struct PresentationLevel: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Shown by the window's container: it covers the tab bar and every split column.
        public static let window = Self(rawValue: "window")
        /// Shown inside its tab (`currentContext`, `overCurrentContext`): it comes back with the tab.
        public static let context = Self(rawValue: "context")
    }

    /// A device's horizontal size class.
    public struct SizeClass: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A compact split view shows one column as one stack (`compactStack`).
        public static let compact = Self(rawValue: "compact")
        /// Columns side by side.
        public static let regular = Self(rawValue: "regular")
    }

    /// Which columns a split view shows at regular width (``SessionState/displayMode``), as
    /// `UISplitViewController.DisplayMode` names them: set it on the split view controller.
    public struct SplitDisplayMode: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow; show an unknown one as ``automatic``).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The client chooses for its width.
        public static let automatic = Self(rawValue: "automatic")
        /// `detail` alone.
        public static let secondaryOnly = Self(rawValue: "secondaryOnly")
        /// One column (`primary`, or `supplementary` with three) beside `detail`.
        public static let oneBesideSecondary = Self(rawValue: "oneBesideSecondary")
        /// One column over `detail`.
        public static let oneOverSecondary = Self(rawValue: "oneOverSecondary")
        /// Three columns only: `primary` and `supplementary` beside `detail`.
        public static let twoBesideSecondary = Self(rawValue: "twoBesideSecondary")
        /// Three columns only: `primary` and `supplementary` over `detail`.
        public static let twoOverSecondary = Self(rawValue: "twoOverSecondary")
        /// Three columns only: `primary` and `supplementary` push `detail` partly off screen.
        public static let twoDisplaceSecondary = Self(rawValue: "twoDisplaceSecondary")
    }

    /// What an extra token of a session may do (``SessionToken/scope``).
    public struct TokenScope: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow; treat an unknown one as ``read``).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The state, the change log and its stream, past versions, lists, the link: a change is `403`.
        public static let read = Self(rawValue: "read")
        /// That and every change (not the session's tokens, nor deleting it).
        public static let write = Self(rawValue: "write")
    }

    /// The form a tab bar shows in (``Tabs/form``).
    public struct TabsForm: OpenEnum {
        /// The value as the server writes it.
        public let rawValue: String
        /// A value from its string (any string: the set may grow).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A bar of tabs (compact width, or tabs that do not adapt to a sidebar).
        public static let tabBar = Self(rawValue: "tabBar")
        /// A sidebar listing the tabs (regular width, tabs the app declares with `sidebar`), as
        /// `UITabBarController`'s sidebar mode or SwiftUI's `sidebarAdaptable` shows them.
        public static let sidebar = Self(rawValue: "sidebar")
    }
}
