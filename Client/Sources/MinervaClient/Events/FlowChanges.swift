/// A flow ended with a result for its parent: by `finish`, or cancelled because its root left
/// another way while the parent stayed. The parent holds the result until its client takes it.
public struct FlowFinished: EventChange {
    /// `finished`.
    public static let type = "finished"
    /// The flow's root node.
    public var node: String
    /// Its screen.
    public var screen: String
    /// The node the result is for.
    public var parent: String
    /// The result.
    public var result: FlowResult
    /// Whether the parent holds the result until taken (the screen returns one, or a value came
    /// back); `nil` from a server of before, which held every one.
    public var held: Bool?

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, screen: String, parent: String, result: FlowResult, held: Bool? = nil) {
        self.node = node
        self.screen = screen
        self.parent = parent
        self.result = result
        self.held = held
    }
}

/// How a flow ended, and with what.
public struct FlowResult: Codable, Hashable, Sendable {
    /// `success` or `cancelled`.
    public var status: FlowStatus
    /// The value given to `finish`, when not null.
    public var value: JSONValue?
    /// For a flow cancelled by leaving another way than `finish`: the removal reason that took it.
    public var cause: RemovalReason?
    /// True when the user did it (a swipe the client reported).
    public var interactive: Bool?

    /// Creates a result.
    public init(status: FlowStatus, value: JSONValue? = nil, cause: RemovalReason? = nil, interactive: Bool? = nil) {
        self.status = status
        self.value = value
        self.cause = cause
        self.interactive = interactive
    }
}

/// The parent's client took the result a flow of `screen` left on `node`.
public struct ResultConsumed: EventChange {
    /// `resultConsumed`.
    public static let type = "resultConsumed"
    /// The node that held the result.
    public var node: String
    /// The flow's screen.
    public var screen: String

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(node: String, screen: String) {
        self.node = node
        self.screen = screen
    }
}

/// The session switched root flows: every node of `from` left before it, and the new flow's
/// base navigators stand empty until the `added` events after it.
public struct FlowChanged: EventChange {
    /// `flowChanged`.
    public static let type = "flowChanged"
    /// The flow it left.
    public var from: String
    /// The flow it shows now.
    public var to: String
    /// The new flow's base navigators, in layout order (tab order, or the split view's columns).
    public var navigators: [String]

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(from: String, to: String, navigators: [String]) {
        self.from = from
        self.to = to
        self.navigators = navigators
    }
}

/// A change a device numbered changed nothing: its block is this one event, which names the
/// device and its number (``EventFields/device``, ``EventFields/deviceSeq``), so that the
/// session keeps the number.
public struct Unchanged: EventChange {
    /// `unchanged`.
    public static let type = "unchanged"

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init() {}
}

/// The session first reached a screen where the variants of an experiment it is assigned to
/// differ: it counts as exposed from now on.
public struct Exposed: EventChange {
    /// `exposed`.
    public static let type = "exposed"
    /// The experiment's key.
    public var experiment: String
    /// The variant the session runs.
    public var variant: String

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(experiment: String, variant: String) {
        self.experiment = experiment
        self.variant = variant
    }
}

/// The session moved to another version of the app description.
public struct AppChanged: EventChange {
    /// `appChanged`.
    public static let type = "appChanged"
    /// The version it ran.
    public var from: String
    /// The version it runs now.
    public var to: String

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
