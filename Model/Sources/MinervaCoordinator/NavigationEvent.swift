public import MinervaJSON

/// One change of a session's navigation state that a client following the session applies:
/// operations return the removals and flow results they caused, and
/// ``CoordinatorTree/changeBlock(since:operationEvents:)`` completes them into the whole block
/// of a mutation (nodes added, the tab, flags and pending target that changed).
public enum NavigationEvent: Hashable, Sendable {
    /// A node came on screen.
    case added(AddedNode)
    /// A node left the screen and the tree.
    case removed(RemovedNode)
    /// A flow ended with a result for its parent (after its `removed` events).
    case finished(FinishedFlow)
    /// The selected tab changed.
    case tabSelected(String)
    /// The session's flags changed: the whole new set, sorted.
    case flagsChanged([String])
    /// A guarded target or a deep link is kept, replaced or dropped (`nil`).
    case pendingChanged(Pending?)
    /// The deep links a screen holds changed (one arrived, or they applied or were dropped): all of them now.
    case heldLinksChanged([String])
    /// The session switched root flows: every node of the old one left (reason `flowChanged`)
    /// and the new one's base navigators stand empty until its `added` events.
    case flowChanged(FlowChange)
    /// An overlay flow came over the session's flow (its navigator ``NavigatorID/overlay`` stands
    /// empty until its root's `added` event), or left (`nil`, after its nodes' `removed` events):
    /// ``CoordinatorTree/overlay``.
    case overlayChanged(String?)
    /// A node's params changed in place (a deep link that kept it, or `PATCH …/params`).
    case paramsChanged(node: NodeID, params: [String: JSONValue])
    /// A set-root kept nodes that were on the stack and moved them (to new places, or under the
    /// stack's owner): the navigator's whole stack now, bottom first.
    case stackChanged(navigator: NavigatorID, stack: [NodeID])
    /// The device's horizontal size class changed (a collapse may dismiss presentations from
    /// columns compact does not show: their removals come first in the block).
    case sizeClassChanged(SizeClass)
    /// The columns a regular-width split view shows changed (``CoordinatorTree/setDisplayMode(_:)``).
    case displayModeChanged(SplitDisplayMode)
    /// A shown node's presentation changed: the user moved its sheet to another detent
    /// (`selected`), or the app let or stopped the user swiping it away (`dismissible`).
    case presentationChanged(node: NodeID, selected: String?, dismissible: Bool?)
    /// A node's UI state was replaced (an empty object clears it).
    case uiChanged(node: NodeID, ui: [String: JSONValue])
    /// The result a flow of `screen` left on `node` was taken by its client.
    case resultConsumed(node: NodeID, screen: String)

    /// Why a node left the tree (`restore`: the session went back to an earlier version).
    /// `sizeClass`: a collapse to compact dismissed a presentation from a column compact does not show.
    public enum RemovalReason: String, Sendable, CaseIterable {
        case pop, dismiss, setRoot, finish, deepLink, ancestorRemoved, restore, flowChanged, sizeClass

        /// Whether a flow root that leaves for this reason while its parent stays sends its
        /// parent a `cancelled` result (a finish sends its own; the rest take the parent too or
        /// are no cancellation).
        public var cancelsFlows: Bool {
            switch self {
            case .pop, .dismiss, .setRoot, .deepLink, .sizeClass: true
            case .finish, .ancestorRemoved, .restore, .flowChanged: false
            }
        }
    }

    /// The node an `added`, `removed` or `finished` event is about.
    public var node: NodeID? {
        switch self {
        case .added(let added): added.node
        case .removed(let removed): removed.node
        case .finished(let finished): finished.node
        case .paramsChanged(let node, _), .uiChanged(let node, _), .resultConsumed(let node, _), .presentationChanged(let node, _, _): node
        case .tabSelected, .flagsChanged, .pendingChanged, .stackChanged, .flowChanged, .overlayChanged, .sizeClassChanged, .displayModeChanged, .heldLinksChanged: nil
        }
    }
}

/// A node that came on screen, as the `added` event describes it.
public struct AddedNode: Hashable, Sendable {
    /// The new node.
    public let node: NodeID
    /// Its screen and params.
    public let screen: String
    public let params: [String: JSONValue]
    /// The coordinator that started it.
    public let parent: NodeID
    /// The navigator whose stack holds it.
    public let navigator: NavigatorID
    /// How it came on screen.
    public let presentation: Presentation
    /// For a node that starts a navigator of its own (a present): the presenting navigator.
    public let presentedBy: NavigatorID?
    /// For a node that starts a navigator of its own: whether that navigator accepts pushes.
    public let embedded: Bool?
    /// The screen's title in the session's app version, when it declares one.
    public let title: String?
    /// For a presented node: its sheet, anchor and `dismissible`, when it has any.
    public var settings: PresentationSettings? { boxedSettings?.settings }
    /// ``settings`` held by reference: most nodes have none, and events are copied often, so
    /// every event (of any type) stays as small as it was.
    private let boxedSettings: SettingsBox?

    /// Describes a node as added; stores read events back with it.
    public init(
        node: NodeID, screen: String, params: [String: JSONValue], parent: NodeID, navigator: NavigatorID, presentation: Presentation,
        presentedBy: NavigatorID?, embedded: Bool?, title: String? = nil, settings: PresentationSettings? = nil
    ) {
        self.title = title
        boxedSettings = settings.map(SettingsBox.init)
        self.node = node
        self.screen = screen
        self.params = params
        self.parent = parent
        self.navigator = navigator
        self.presentation = presentation
        self.presentedBy = presentedBy
        self.embedded = embedded
    }
}

/// Presentation settings held by reference (see ``AddedNode/settings``).
private final class SettingsBox: Hashable, Sendable {
    let settings: PresentationSettings

    init(_ settings: PresentationSettings) {
        self.settings = settings
    }

    static func == (lhs: SettingsBox, rhs: SettingsBox) -> Bool { lhs.settings == rhs.settings }

    func hash(into hasher: inout Hasher) {
        hasher.combine(settings)
    }
}

/// A node that left the tree, and why.
public struct RemovedNode: Hashable, Sendable {
    /// The node and its screen.
    public let node: NodeID
    public let screen: String
    /// Why it left.
    public let reason: NavigationEvent.RemovalReason
    /// The navigator whose stack held it, so a client can animate the right stack.
    public let navigator: NavigatorID

    /// Describes a removal; stores read events back with it.
    public init(node: NodeID, screen: String, reason: NavigationEvent.RemovalReason, navigator: NavigatorID) {
        self.node = node
        self.screen = screen
        self.reason = reason
        self.navigator = navigator
    }
}

/// A flow that ended with a result for its parent.
public struct FinishedFlow: Hashable, Sendable {
    /// The flow's node and its screen.
    public let node: NodeID
    public let screen: String
    /// The coordinator that receives the result.
    public let parent: NodeID
    /// `{"status": "success"|"cancelled", "value"?}`.
    public let result: JSONValue
    /// Whether the parent holds the result until its client takes it: the screen returns one
    /// (`"result": true`) or the finish carried a value; never for a root flow's completion.
    public let held: Bool

    /// Describes a finished flow; stores read events back with it.
    public init(node: NodeID, screen: String, parent: NodeID, result: JSONValue, held: Bool) {
        self.node = node
        self.screen = screen
        self.parent = parent
        self.result = result
        self.held = held
    }
}

/// A switch of root flows, and the base navigators the new flow starts with.
public struct FlowChange: Hashable, Sendable {
    /// The flow left.
    public let from: String
    /// The flow entered.
    public let to: String
    /// The new flow's base navigators in layout order (tab order for a tab bar), each with the
    /// kind of its root: what rebuilds the flow's empty base from the change log.
    public let bases: [BaseNavigator]

    /// Describes a switch; stores read events back with it.
    public init(from: String, to: String, bases: [BaseNavigator]) {
        self.from = from
        self.to = to
        self.bases = bases
    }
}

/// A base navigator as a flow switch names it.
public struct BaseNavigator: Hashable, Sendable {
    /// Its id (`v0`, `tab:home`, `primary`, `detail`).
    public let id: NavigatorID
    /// The kind its root takes.
    public let rootKind: Presentation.Kind

    /// Creates one.
    public init(id: NavigatorID, rootKind: Presentation.Kind) {
        self.id = id
        self.rootKind = rootKind
    }
}
