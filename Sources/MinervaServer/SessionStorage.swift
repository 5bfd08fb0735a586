/// A session as it is kept on disk.
public struct StoredSession: Sendable {
    /// The session id.
    public let id: String
    /// The SHA-256 of its bearer token.
    public let tokenHash: [UInt8]
    /// Its version, also inside the snapshot (kept apart for inspection).
    public let version: Int
    /// ``SessionSnapshot`` bytes.
    public let snapshot: [UInt8]
    /// When a request last used it, in seconds since 1970.
    public let lastUsed: Double
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
    /// Inserts or replaces a session.
    func save(_ session: StoredSession) throws
    /// Removes sessions.
    func delete(_ ids: [String]) throws
    /// Records when sessions were last used.
    func touch(_ usage: [(id: String, lastUsed: Double)]) throws
    /// Remembers a creation answer, forgetting those stored before `expiredBefore`.
    func save(_ creation: StoredCreation, expiredBefore: Double) throws
}
