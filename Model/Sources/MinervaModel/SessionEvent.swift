public import MinervaCoordinator

/// One entry of a session's change log: every successful mutation appends a block of them,
/// all with the version it produced, the last one marked final.
public struct SessionEvent: Hashable, Sendable {
    /// What changed.
    public enum Change: Hashable, Sendable {
        /// A change of the navigation state (added, removed, finished, tab, flags, pending).
        case navigation(NavigationEvent)
        /// A node's list was replaced: its new list version, and the previous one (0 for the first).
        case listChanged(node: NodeID, list: Int, from: Int)
        /// The session moved to another version of the app description.
        case appChanged(from: String, to: String)
        /// The session first reached a part of the app where the variants of an experiment it
        /// is assigned to differ (``MinervaCoordinator/AppDescription/Assignment/differs``):
        /// counted in the experiment's results from now on.
        case exposed(experiment: String, variant: String)
        /// A device's numbered change that changed nothing: it still takes a version, so that
        /// its number is kept (its final event names it).
        case unchanged
    }

    /// Position in the session's log: 1, 2, 3, … without gaps.
    public let seq: Int
    /// The session version the mutation produced.
    public let version: Int
    /// Server time of the mutation, in milliseconds since 1970.
    public let at: Int
    /// Whether this is the last event of its mutation's block.
    public let isFinal: Bool
    /// What changed.
    public let change: Change
    /// On the last event of a block: the focus after the block, so that a client that mirrors
    /// the state from events never re-implements the server's rules (`nil` on the others, and
    /// on events stored before it was kept).
    public let focus: NodeID?
    /// On the last event of a block whose operation made ids no event shows (a node made and
    /// removed by the same operation): the id counters after the block, which a replay then
    /// takes (``CoordinatorTree/replay(_:version:counters:)``); `nil` otherwise, the counters
    /// then following from the block's `added` events.
    public let counters: IDCounters?
    /// On the last event of a block a device numbered: the device and its number for the change
    /// (``DeviceChange``); `nil` otherwise.
    public let device: DeviceChange?
    /// Now and then, a snapshot of the whole state at some version (``Checkpoint``), from which
    /// the log rebuilds later versions forward; clients never see it.
    public let checkpoint: [UInt8]?
    /// About how many bytes the event takes in memory, computed once when it is made: what the
    /// in-memory log's share of a session's byte budget counts, and what spaces checkpoints.
    public let approximateByteCount: Int

    /// Creates an event; the core numbers them, and stores read them back.
    public init(
        seq: Int, version: Int, at: Int, isFinal: Bool, change: Change, focus: NodeID? = nil, counters: IDCounters? = nil, device: DeviceChange? = nil
    ) {
        self.init(seq: seq, version: version, at: at, isFinal: isFinal, change: change, focus: focus, counters: counters, device: device, checkpoint: nil)
    }

    /// Creates an event that carries a checkpoint.
    public init(
        seq: Int, version: Int, at: Int, isFinal: Bool, change: Change, focus: NodeID?, counters: IDCounters?, device: DeviceChange?,
        checkpoint: [UInt8]?
    ) {
        self.seq = seq
        self.version = version
        self.at = at
        self.isFinal = isFinal
        self.change = change
        self.focus = focus
        self.counters = counters
        self.device = device
        self.checkpoint = checkpoint
        approximateByteCount = Self.approximateByteCount(of: change, checkpoint: checkpoint)
    }

    /// Two events are the same entry of the log whether or not they carry a checkpoint, which a
    /// store gives back with its members in another order.
    public static func == (lhs: SessionEvent, rhs: SessionEvent) -> Bool {
        lhs.seq == rhs.seq && lhs.version == rhs.version && lhs.at == rhs.at && lhs.isFinal == rhs.isFinal && lhs.change == rhs.change
            && lhs.focus == rhs.focus && lhs.counters == rhs.counters && lhs.device == rhs.device
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(version)
        hasher.combine(change)
    }

    /// The same event carrying `checkpoint`.
    public func carrying(_ checkpoint: [UInt8]) -> SessionEvent {
        SessionEvent(
            seq: seq, version: version, at: at, isFinal: isFinal, change: change, focus: focus, counters: counters, device: device, checkpoint: checkpoint)
    }
}
