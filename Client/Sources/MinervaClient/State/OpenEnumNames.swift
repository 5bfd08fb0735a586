// The open sets of strings of the contract, by the names an app uses.

/// How a session's base navigators are laid out: `stack` or `split`.
public typealias Layout = OpenEnums.Layout
/// A device's horizontal size class: `compact` or `regular`.
public typealias SizeClass = OpenEnums.SizeClass
/// A modal presentation style (UIKit's `UIModalPresentationStyle`).
public typealias ModalStyle = OpenEnums.ModalStyle
/// How a node came on screen: `app`, `root`, `push`, `present`, `tab`, `detail`, `supplementary`, `overlay`.
public typealias PresentationKind = OpenEnums.PresentationKind
/// Where a presented node lives: `window` or `context`.
public typealias PresentationLevel = OpenEnums.PresentationLevel
/// How a screen comes on screen by default: `push` or `present`.
public typealias PresentationMode = OpenEnums.PresentationMode
/// Why a node left.
public typealias RemovalReason = OpenEnums.RemovalReason
/// How a flow ended: `success` or `cancelled`.
public typealias FlowStatus = OpenEnums.FlowStatus
/// What a pending target resumes: `navigate`, `push`, `present`, `setRoot`, `selectTab` or `deepLink`.
public typealias PendingOperation = OpenEnums.PendingOperation
/// Which columns a split view shows at regular width (`UISplitViewController.DisplayMode`).
public typealias SplitDisplayMode = OpenEnums.SplitDisplayMode
/// What an extra token of a session may do: `read` or `write`.
public typealias TokenScope = OpenEnums.TokenScope
