import MinervaModel

/// How the core keeps the sessions it holds in memory in step with its store: nothing to do when
/// this process is the store's only writer (``SoleWriter``), checks and catch-up when others
/// write it too (``SharedStoreFollower``).
protocol SessionFollowing: Sendable {
    /// Whether other processes write the store (requests that read it are then served off the
    /// HTTP threads, and sessions are counted in the store again now and then).
    var isShared: Bool { get }

    /// Starts hearing of the other processes' commits.
    func start(_ core: SessionCore)

    /// A session found in memory, checked against the store before use.
    /// - Returns: the session, or `nil` when it is no longer stored.
    /// - Throws: `unavailable` when the store cannot be read.
    func validate(_ session: LiveSession, core: SessionCore) throws(SessionError) -> LiveSession?

    /// Reads a session from the store again, before taking its lock, and makes what is stored
    /// current, publishing the events this process had not.
    func reload(_ session: LiveSession, core: SessionCore)

    /// Refuses a session that runs a newer app version than this process, `current`.
    /// - Throws: `appVersionConflict`, or `unavailable` when the store cannot tell.
    func checkNotAhead(_ recorded: String, current: String, of id: String, core: SessionCore) throws(SessionError)

    /// Records that this process now runs `version`, the newest.
    func announce(_ version: String) throws(StorageError)

    /// Someone here started following a session nobody here followed: from now on this process
    /// must hear of the other processes' commits to it.
    func followed(_ session: String)
}

/// The store's only writer is this process: what it holds in memory is what is stored.
struct SoleWriter: SessionFollowing {
    var isShared: Bool { false }
    func start(_ core: SessionCore) {}
    func validate(_ session: LiveSession, core: SessionCore) throws(SessionError) -> LiveSession? { session }
    func reload(_ session: LiveSession, core: SessionCore) {}
    func checkNotAhead(_ recorded: String, current: String, of id: String, core: SessionCore) throws(SessionError) {}
    func announce(_ version: String) throws(StorageError) {}
    func followed(_ session: String) {}
}
