/// A session's state document: what the session shows — its coordinator tree, navigators,
/// tabs, flags and pending target — at one version.
///
/// Every navigation operation answers one; ``MinervaSession/refresh()`` reads one; a
/// ``SessionMirror`` keeps one current from the change log. Members a newer server adds are
/// skipped; strings from sets that may grow keep values this client does not know.
public struct SessionState: Codable, Hashable, Sendable {
    /// The session's id.
    public var id: String
    /// Starts at 1 and grows by 1 with every change; a change sends it as `If-Match`.
    public var version: Int
    /// `stack` or `split` (exactly when the flow's root is a split view).
    public var layout: Layout
    /// The root flow the session shows (`main` for a single-`root` app).
    public var flow: String
    /// The overlay flow shown over ``flow`` (a PIN lock), its screens on navigator `overlay`;
    /// nil when none is. Navigation beneath it is refused (``MinervaError/Code/overlaid``).
    public var overlay: String?
    /// The version of the app description the session runs.
    public var appVersion: String
    /// The top-most visible node.
    public var focus: String
    /// The number the next node's id takes (`n12` for 12): a change numbers the nodes it makes
    /// from it, in the order it makes them, and no id is ever used again in the session.
    public var nextNode: Int
    /// The number the next presented navigator's id takes (`v3` for 3).
    public var nextNavigator: Int
    /// The device's horizontal size class: always in a split view, elsewhere only when compact.
    public var sizeClass: SizeClass?
    /// Split views only: which columns show at regular width (``MinervaSession/setDisplayMode(_:)``).
    public var displayMode: SplitDisplayMode?
    /// Split views only: whether the split view shows one column as one stack.
    public var collapsed: Bool?
    /// Split views only: what a compact device shows as one stack.
    public var compactStack: [String]?
    /// The app coordinator `n0`, with the whole tree below it.
    public var root: Node
    /// Every navigator, in the order they were made (base navigators first).
    public var navigators: [Navigator]
    /// The tab bar; nil unless the flow has tabs.
    public var tabs: Tabs?
    /// The session's flags, sorted.
    public var flags: [String]
    /// Only for a session stored by a release that kept no app descriptions by version: the
    /// screens of its nodes that the app no longer declares.
    public var unknownScreens: [String]?
    /// A guarded target waiting for its flow, or a deep link waiting for its flow; nil when none.
    public var pending: Pending?
    /// Deep links that wait while the focus is a screen that holds links, oldest first; nil when none.
    public var heldLinks: [String]?
    /// Per device that numbered a change of the session (`Minerva-Device-Change`): the newest number
    /// the session applied and the version that change made; nil while no device numbered one.
    public var devices: [String: DeviceMark]?
    /// The experiments the session is assigned to, by key; nil while it is in none.
    public var experiments: [String: ExperimentMembership]?
    /// The newest event's `seq` (0 when none): where to follow the change log from.
    public var lastEvent: Int

    /// A state document (the client reads them from the server; tests and previews make them).
    public init(
        id: String, version: Int, layout: Layout, flow: String, overlay: String? = nil, appVersion: String, focus: String, nextNode: Int, nextNavigator: Int,
        sizeClass: SizeClass? = nil, displayMode: SplitDisplayMode? = nil,
        collapsed: Bool? = nil, compactStack: [String]? = nil, root: Node, navigators: [Navigator], tabs: Tabs? = nil,
        flags: [String] = [], unknownScreens: [String]? = nil, pending: Pending? = nil, heldLinks: [String]? = nil,
        devices: [String: DeviceMark]? = nil, experiments: [String: ExperimentMembership]? = nil, lastEvent: Int
    ) {
        self.id = id
        self.version = version
        self.layout = layout
        self.flow = flow
        self.overlay = overlay
        self.appVersion = appVersion
        self.focus = focus
        self.nextNode = nextNode
        self.nextNavigator = nextNavigator
        self.sizeClass = sizeClass
        self.displayMode = displayMode
        self.collapsed = collapsed
        self.compactStack = compactStack
        self.root = root
        self.navigators = navigators
        self.tabs = tabs
        self.flags = flags
        self.unknownScreens = unknownScreens
        self.pending = pending
        self.heldLinks = heldLinks
        self.devices = devices
        self.experiments = experiments
        self.lastEvent = lastEvent
    }
}
