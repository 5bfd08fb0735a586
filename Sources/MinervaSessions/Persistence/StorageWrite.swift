public import MinervaList
public import MinervaModel

/// What one mutation, creation or deletion writes: stores carry it out in one transaction,
/// several of them together when they are committed as a group.
public enum StorageWrite: Sendable {
    /// A new session, or a change of one.
    case session(SessionWrite)
    /// A session and all it holds go.
    case delete(id: String)
    /// When sessions were last used, so that expiry survives a restart.
    case touch([(id: String, lastUsed: Double)])
}

/// A new session or what one mutation changed in it: a delta — its events, list versions and
/// answers — and now and then the session's head (a snapshot of its state), from which a reader
/// rebuilds the state by replaying the events after it.
public struct SessionWrite: Sendable {
    /// The session's head as it is now: written when ``writesHead`` says so (always by a creation).
    public var record: SessionRecord
    /// Whether ``record`` replaces the stored head; otherwise the head stays as it is (its state
    /// older than the events after it).
    public var writesHead: Bool
    /// The newest event the stored session must have for the write to apply (a checked write:
    /// the greater of its head's `lastEvent` and its newest event's `seq`); `nil` creates the
    /// session, which must not exist yet.
    public var expectedLastEvent: Int?
    /// Events to add.
    public var newEvents: [EventRecord] = []
    /// Stored events with a lower `seq` go (the log keeps the newest only), except the newest
    /// one that carries a checkpoint and those after it: earlier versions are rebuilt from it.
    public var oldestKeptEvent: Int?
    /// List versions to add, each its node's current one from now.
    public var newListVersions: [ListRecord] = []
    /// Nodes whose current list version stops being shown at the event `at` (a new version
    /// replaces it, or the node was removed): carried out before ``newListVersions`` are added.
    /// A version stays as long as the log keeps an event that shows it, so that every kept
    /// version reads back whole; when ``oldestKeptEvent`` drops events, the versions no kept
    /// event shows go, except a living node's newest ``retainedListVersions`` (diffs start there).
    public var supersededLists: [(node: String, at: Int)] = []
    /// Nodes whose list starts at version 1 (a first list; of a node that a restore brought back,
    /// another list than its earlier one): what the store kept of an earlier list of theirs goes
    /// before ``newListVersions`` are added.
    public var restartedLists: [String] = []
    /// How many versions before its current one a node's list keeps for diffs, shown or not.
    public var retainedListVersions = Int.max
    /// Answers to remember.
    public var newAnswers: [AnswerRecord] = []
    /// How many of the session's answers are kept at most: the oldest beyond it go.
    public var keptAnswers = Int.max
    /// For a session created with an `Idempotency-Key`: the key and its answer, stored with it.
    /// A key stored already refuses the creation (`conflict`), unless it was stored before
    /// ``creationKeysExpireBefore``: an expired key is taken over.
    public var creation: AnswerRecord?
    /// When creation keys stored earlier have expired (seconds since 1970).
    public var creationKeysExpireBefore = -Double.infinity
    /// The experiments a new session was assigned: a row each, which outlives the session.
    public var experimentUnits: [ExperimentUnitRecord] = []
    /// What the change did that the session's experiments count: each kept unless its
    /// experiment and name are kept already (the first time counts), and only for an experiment
    /// the session has a row of.
    public var experimentFacts: [ExperimentFact] = []
    /// The change as the values the session core holds, for a store that keeps values (the
    /// memory store) and encodes records only when they are read: then ``newEvents`` and
    /// ``newListVersions`` are empty and ``record`` carries no state, and this says them.
    public var values: WrittenValues?

    /// A write checked against `expectedLastEvent` (a creation when `nil`, which always writes its head).
    public init(record: SessionRecord, expectedLastEvent: Int?, writesHead: Bool = true) {
        self.record = record
        self.expectedLastEvent = expectedLastEvent
        self.writesHead = writesHead || expectedLastEvent == nil
    }
}

/// What a change wrote, as values: the session's state after it (its head, always the current
/// state), its events, and its new list versions. A class: the memory store keeps it as the
/// session's head, a reference rather than a copy of the state.
public final class WrittenValues: Sendable {
    /// The session's state after the change.
    public let state: SessionState
    /// Its events, oldest first.
    public let events: [SessionEvent]
    /// Its new list versions, each its node's current one from now.
    public let lists: [(node: String, version: Int, content: ListContent)]

    /// Bundles the values.
    public init(state: SessionState, events: [SessionEvent], lists: [(node: String, version: Int, content: ListContent)]) {
        self.state = state
        self.events = events
        self.lists = lists
    }
}

/// How one write of a committed group ended.
public enum WriteOutcome: Sendable, Equatable {
    /// It is durable.
    case committed
    /// The stored session did not have the expected newest event (another writer got there
    /// first, or it is gone), or a session to create already existed; nothing of this write was applied.
    case conflict
}
