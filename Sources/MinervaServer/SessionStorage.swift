/// A session as it is kept on disk: its tree and version, and the history that grows with it
/// (events, lists, remembered answers) as separate records, so that a mutation writes only
/// what it changed.
public struct StoredSession: Sendable {
    /// The session id.
    public let id: String
    /// The SHA-256 of its bearer token.
    public let tokenHash: [UInt8]
    /// Its version, also inside the snapshot (kept apart for inspection).
    public let version: Int
    /// ``SessionSnapshot`` bytes of the tree and version. Stores written before events, lists
    /// and answers had records of their own keep those inside it too.
    public let snapshot: [UInt8]
    /// When a request last used it, in seconds since 1970.
    public let lastUsed: Double
    /// Its events, oldest first, each as ``SessionSnapshot`` bytes.
    public var events: [[UInt8]] = []
    /// The kept versions of each node's list, by node id and then version, oldest first.
    public var listVersions: [(node: String, version: Int, content: [UInt8])] = []
    /// Its remembered `Idempotency-Key` answers, oldest first.
    public var answers: [[UInt8]] = []

    /// A stored session as read back from storage.
    public init(id: String, tokenHash: [UInt8], version: Int, snapshot: [UInt8], lastUsed: Double) {
        self.id = id
        self.tokenHash = tokenHash
        self.version = version
        self.snapshot = snapshot
        self.lastUsed = lastUsed
    }
}

/// What one mutation changed in a stored session: written in one transaction.
public struct SessionChange: Sendable {
    /// The session id.
    public let id: String
    /// The SHA-256 of its bearer token.
    public let tokenHash: [UInt8]
    /// The new version.
    public let version: Int
    /// The tree and version (``StoredSession/snapshot``).
    public let snapshot: [UInt8]
    /// When a request last used it, in seconds since 1970.
    public let lastUsed: Double
    /// Whether every stored event, list and answer of the session goes first (a new session, or
    /// one written whole again).
    public var replacesAll = false
    /// Events to add, by sequence number.
    public var newEvents: [(seq: Int, event: [UInt8])] = []
    /// Stored events with a lower sequence number go (the history keeps the newest only).
    public var oldestEvent: Int?
    /// List versions to add, by node id.
    public var newListVersions: [(node: String, version: Int, content: [UInt8])] = []
    /// By node id, the oldest list version still kept: stored versions before it go; `nil`
    /// drops the node's list.
    public var keptListVersions: [(node: String, oldest: Int?)] = []
    /// Answers to remember, by key.
    public var newAnswers: [(key: String, storedAt: Double, answer: [UInt8])] = []
    /// Keys whose answers are forgotten.
    public var forgottenAnswers: [String] = []
}

/// A remembered answer to `POST /v1/sessions` with an `Idempotency-Key`.
public struct StoredCreation: Sendable {
    /// The key.
    public let key: String
    /// The fingerprint of the request it answered.
    public let fingerprint: UInt64
    /// The answer's status, headers and body.
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]
    /// When it was stored, in seconds since 1970.
    public let storedAt: Double
}

/// Where sessions survive restarts. Every method completes durably before it returns, so a
/// mutation is on disk before its answer is sent.
public protocol SessionStorage: Sendable {
    /// Every stored session.
    func loadSessions() throws -> [StoredSession]
    /// Every stored creation answer.
    func loadCreations() throws -> [StoredCreation]
    /// Writes what a mutation changed, creating the session when it is new.
    func save(_ change: SessionChange) throws
    /// Removes sessions.
    func delete(_ ids: [String]) throws
    /// Records when sessions were last used.
    func touch(_ usage: [(id: String, lastUsed: Double)]) throws
    /// Remembers a creation answer, forgetting those stored before `expiredBefore`.
    func save(_ creation: StoredCreation, expiredBefore: Double) throws
}
