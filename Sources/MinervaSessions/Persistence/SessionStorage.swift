/// Where sessions are kept: every method is done before it returns (durably, for a durable
/// store). The core commits a durable store's writes from its writer thread and the memory
/// store's inline; it reads (a session on first use, events and list versions memory no longer
/// holds, remembered answers) from the threads that serve requests.
public protocol SessionStorage: Sendable {
    /// Reads one session, or `nil` when there is none with that id: its head, and the events after
    /// the head (the core rebuilds its state from both); of the lists of the nodes it has now,
    /// each one's current and previous version and those its newest `eventTail` events replaced
    /// (older ones are read one by one, when a diff or an earlier version needs them).
    /// - Parameters:
    ///   - id: the session id.
    ///   - eventTail: how many of its newest events to read with it at least.
    func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession?

    /// The SHA-256 of a session's bearer token, or `nil` when there is no session with that id:
    /// what a request's token is checked against before anything else of the session is read.
    func tokenHash(of id: String) throws(StorageError) -> [UInt8]?

    /// A session's extra tokens (``TokenGrant``), oldest first; none for an unknown session.
    func grants(of id: String) throws(StorageError) -> [TokenGrant]

    /// The extra token of a session whose secret's SHA-256 is `hash`, if it has one: what a
    /// request with an extra token is checked against, every time (a revocation holds at once on
    /// every process).
    func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant?

    /// Keeps a new extra token of a stored session, unless the session holds `limit` already.
    func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition

    /// Forgets one of a session's extra tokens.
    /// - Returns: whether the session had it.
    func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool

    /// The events of a session with `seq` greater than `after` and at most `last`, oldest first
    /// (a write in flight may already have stored newer ones, which are not published yet).
    func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord]

    /// One range of a session's events that rebuilds `version`: from the newest kept event that
    /// carries a checkpoint and made `version` or an earlier one (or version 2, whose first event
    /// carries version 1), through `last`; empty when no kept checkpoint is known to be early
    /// enough (events stored before their version was).
    func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord]

    /// One kept version of a node's list, if the store has it.
    func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord?

    /// A session's remembered answer to a mutation with this `Idempotency-Key`, if any.
    func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord?

    /// The remembered answer of a `POST /v1/sessions` with this `Idempotency-Key`, if any.
    func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord?

    /// How many sessions are stored.
    func sessionCount() throws(StorageError) -> Int

    /// Keeps an app description's canonical document under its version, so that a session on
    /// that version runs its own app after a restart and on any instance; a version kept
    /// already stays as it is.
    func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError)

    /// The app description document kept under `version`, if any.
    func appDescription(version: String) throws(StorageError) -> [UInt8]?

    /// The unit rows of an experiment drawn with `seed`, each with the facts kept of its session.
    func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit]

    /// Deletes every experiment row of a unit (a user's, or a session's assignments) and the
    /// facts kept of those sessions; the sessions keep running their variants, uncounted.
    /// - Returns: how many rows went.
    func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int

    /// Carries out writes in one transaction.
    /// - Returns: each write's outcome, in order; a conflicting write is left out, the others apply.
    /// - Throws: when the transaction as a whole could not be committed: nothing was written.
    func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome]

    /// Deletes the sessions unused since `cutoff`, and remembered answers (of creations and of
    /// mutations) stored before `answersBefore`.
    /// - Returns: the ids of the sessions deleted.
    func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String]

    /// Checks that the store can be used now (for a health check).
    /// - Throws: why it cannot.
    func checkReachable() throws(StorageError)

    /// Checks that the store takes a write now, by making one that no session shows (the health
    /// check, once a write was refused, finds out whether the store took writes again).
    /// - Throws: why it does not.
    func checkWritable() throws(StorageError)
}

extension SessionStorage {
    /// A store in this process's own files is reachable while the process runs.
    public func checkReachable() throws(StorageError) {}

    /// A store that takes every write it can reach: as ``checkReachable()``.
    public func checkWritable() throws(StorageError) {
        try checkReachable()
    }
}

/// Why storage could not do what was asked: a full disk, a read-only file, an unreachable database.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, from the store's own error.
    public let description: String
    /// Whether a write may have been committed all the same (the database stopped answering
    /// after it was sent): a retry with the same `Idempotency-Key` tells.
    public let outcomeUnknown: Bool

    /// Wraps a store's error.
    public init(_ description: String, outcomeUnknown: Bool = false) {
        self.description = description
        self.outcomeUnknown = outcomeUnknown
    }
}

/// How far a stored session has got.
public struct SessionHead: Sendable, Equatable {
    /// Its version.
    public let version: Int
    /// The `seq` of its newest event.
    public let lastEvent: Int

    /// Creates a head.
    public init(version: Int, lastEvent: Int) {
        self.version = version
        self.lastEvent = lastEvent
    }
}

/// What a check of a session against a shared store found.
public enum SessionReading: Sendable {
    /// It is not stored (deleted or expired).
    case missing
    /// It is stored as the caller knows it.
    case unchanged
    /// It changed: what is stored now.
    case changed(StoredSession)
}

/// What a shared store holds of a session after the events a process has: the head's version,
/// newest event and app version, and every event after those the process holds.
public struct StoredTail: Sendable {
    /// The stored head (a snapshot the events after it bring up to date).
    public let head: SessionHead
    /// The app version the stored session runs.
    public let appVersion: String
    /// The events after the caller's newest, oldest first (none when it holds the newest).
    public let events: [EventRecord]

    /// Bundles what was read.
    public init(head: SessionHead, appVersion: String, events: [EventRecord]) {
        self.head = head
        self.appVersion = appVersion
        self.events = events
    }
}

/// A store that several processes share. Each process may keep sessions in memory, but checks
/// a session's version in the store before every read, and writes only what is checked against
/// the stored session, so that what it serves never depends on its cache; and it is told about
/// the others' commits, so that its long polls and streams hear of every change.
public protocol SharedSessionStorage: SessionStorage {
    /// Starts telling `handler` about the commits of other processes, from now on, each carrying
    /// the change when it fits in a notice; and calling `resync` whenever notices may have been
    /// missed (after a reconnection, after ``followingChanged()``) and at least every second (a
    /// process may die between its commit and its notice).
    func observeCommits(_ handler: @escaping @Sendable (CommitNotice) -> Void, resync: @escaping @Sendable () -> Void)

    /// A session gained its first follower here: `resync` soon (a notice of it may have been
    /// passed over just before, while nobody here followed it).
    func followingChanged()

    /// Reads a session, as ``SessionStorage/loadSession(_:eventTail:)`` does, unless its newest
    /// event is the one `known` names (the check of a session whose tail could not be replayed).
    /// - Parameters:
    ///   - id: the session id.
    ///   - eventTail: how many of its newest events to read with it at least.
    ///   - known: the version and newest event the caller holds.
    func loadSession(_ id: String, eventTail: Int, unlessAt known: SessionHead) throws(StorageError) -> SessionReading

    /// A session's head and the events after `known` (its `seq`), in one snapshot: what a process
    /// that holds the session up to `known` replays to catch up, without reading the head's state.
    /// - Returns: `nil` when the session is not stored.
    func loadTail(of id: String, after known: Int) throws(StorageError) -> StoredTail?

    /// The `seq` of the newest event of each of these sessions (the greater of its head's
    /// `lastEvent` and its newest event's; those not stored are left out).
    func lastEvents(of ids: [String]) throws(StorageError) -> [String: Int]

    /// Records that a process now runs this app version: it becomes the newest, unless it is
    /// the newest already. Sessions move only towards the newest version.
    func announceAppVersion(_ version: String) throws(StorageError)

    /// The generation of each of two app versions (higher is newer); versions never announced
    /// are left out.
    func appVersionGenerations(_ first: String, _ second: String) throws(StorageError) -> [String: Int]
}
