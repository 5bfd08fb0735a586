public import MinervaCoordinator
public import MinervaList
import MinervaJSON

/// A session's state as a value: what a mutation's step reads and produces. The core swaps it
/// in only once storage has accepted it.
public struct SessionState: Sendable {
    /// The coordinator tree.
    public internal(set) var tree: CoordinatorTree {
        didSet { cachedFocus = nil }
    }
    /// ``CoordinatorTree/focus`` of ``tree``, once ``cacheFocus()`` computed it (any change of
    /// the tree forgets it).
    private var cachedFocus: NodeID?
    /// Starts at 1 and grows by one with every successful mutation.
    public internal(set) var version: Int
    /// The newest version whose block changed more than UI state: an `If-Match` naming any
    /// version from it to ``version`` still matches, so that scrolling never fails a tap.
    public internal(set) var structuralVersion: Int
    /// The `seq` of the newest event (0 when none).
    public internal(set) var lastEvent: Int
    /// The `seq` the log starts from: 1, or later for a session migrated from a store that did
    /// not keep its events.
    public let firstEvent: Int
    /// Each node's list, for the nodes that have one.
    public internal(set) var lists: [NodeID: ListHistory]
    /// The version of the app description the session runs (its tree's app).
    public internal(set) var appVersion: String
    /// What the session's size limit counts: every node (a fixed share and its params), every
    /// list's current cells and every device mark (a fixed share and its id), in bytes.
    public internal(set) var byteCount: Int
    /// Per device that numbered a change of the session, the newest number it applied (see
    /// ``DeviceChange``): kept for the session's life, whatever the session goes back to.
    public internal(set) var devices: [String: DeviceMark] {
        get { marks.devices }
        set { marks = Marks(devices: newValue, experiments: marks.experiments) }
    }
    /// The experiments the session is assigned to, by key: its variant, and when it was
    /// exposed (``expose(at:)``). Set when it is made, kept for its life.
    public internal(set) var experiments: [String: ExperimentMembership] {
        get { marks.experiments }
        set { marks = Marks(devices: marks.devices, experiments: newValue) }
    }
    /// ``devices`` and ``experiments``, which few changes set, behind one reference: a state,
    /// which every change copies several times, carries one reference for both.
    private var marks: Marks

    /// A new session's state: version 1, no event, no list.
    public init(tree: CoordinatorTree, appVersion: String) {
        self.init(tree: tree, appVersion: appVersion, firstEvent: 1, version: 1, lastEvent: 0, structuralVersion: 1, lists: [:], listHistoryBudget: .max)
    }

    /// A session's state at some version, as a store or an earlier version's rebuild gives it back.
    /// - Parameters:
    ///   - firstEvent: the `seq` its log starts from.
    ///   - structuralVersion: see ``structuralVersion``.
    ///   - lists: each node's list, with the versions kept for diffs.
    ///   - listHistoryBudget: bytes the lists' older versions may take together (see ``StepLimits``).
    ///   - devices: the newest change number applied per device.
    ///   - experiments: the experiments it is assigned to.
    public init(
        tree: CoordinatorTree, appVersion: String, firstEvent: Int, version: Int, lastEvent: Int, structuralVersion: Int, lists: [NodeID: ListHistory],
        listHistoryBudget: Int, devices: [String: DeviceMark] = [:], experiments: [String: ExperimentMembership] = [:]
    ) {
        self.tree = tree
        self.version = version
        self.structuralVersion = structuralVersion
        self.lastEvent = lastEvent
        self.firstEvent = firstEvent
        self.lists = lists
        self.appVersion = appVersion
        marks = devices.isEmpty && experiments.isEmpty ? .none : Marks(devices: devices, experiments: experiments)
        byteCount = Self.byteCount(of: tree, lists: lists, devices: devices)
        trimListHistory(budget: listHistoryBudget)
    }

    /// What a session's size limit counts of a tree, its lists and its device marks (see ``byteCount``).
    static func byteCount(of tree: CoordinatorTree, lists: [NodeID: ListHistory], devices: [String: DeviceMark]) -> Int {
        tree.nodes.values.reduce(0) { $0 + byteCount(ofNodeWith: $1.params) + byteCount(ofUI: $1.ui) + byteCount(ofResults: $1.results) }
            + lists.values.reduce(0) { $0 + $1.current.byteCount } + devices.keys.reduce(0) { $0 + DeviceMark.byteCount(ofDevice: $1) }
    }

    /// The tree's focus, computed once per mutation (see ``cacheFocus()``).
    public var focus: NodeID {
        cachedFocus ?? tree.focus
    }

    /// Computes the tree's focus once, for everything that reads it until the tree changes
    /// again (the mutation's analytics, its answer, the next mutation's start).
    public mutating func cacheFocus() {
        if cachedFocus == nil { cachedFocus = tree.focus }
    }

    /// What one node counts for the session's size limit: a fixed share for its place in the
    /// tree (about what a node takes in memory), and its params.
    static func byteCount(ofNodeWith params: [String: JSONValue]) -> Int {
        512 + JSONValue.object(params).encodedByteCount
    }

    /// What a node's UI state counts for the session's size limit.
    static func byteCount(ofUI ui: [String: JSONValue]?) -> Int {
        ui.map { JSONValue.object($0).encodedByteCount } ?? 0
    }

    /// What the results a node holds count for the session's size limit.
    static func byteCount(ofResults results: [String: FlowResult]?) -> Int {
        results?.reduce(0) { $0 + 64 + $1.key.utf8.count + ($1.value.value?.encodedByteCount ?? 0) } ?? 0
    }

    /// The oldest `seq` a client can still read from this session's log (1 while nothing was
    /// dropped), given how many events are kept in all.
    public func oldestKeptEvent(history: Int) -> Int {
        max(firstEvent, lastEvent - history + 1)
    }
}

/// What a state holds of devices and experiments (see ``SessionState/devices``), immutable: a
/// change of either makes another.
private final class Marks: Sendable {
    let devices: [String: DeviceMark]
    let experiments: [String: ExperimentMembership]

    init(devices: [String: DeviceMark], experiments: [String: ExperimentMembership]) {
        self.devices = devices
        self.experiments = experiments
    }

    /// Neither: the state of most sessions.
    static let none = Marks(devices: [:], experiments: [:])
}
