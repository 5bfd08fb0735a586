/// A session's own row, its head: who may use it, and its state at some version — the newest
/// when a creation or a snapshot wrote it, else older, with the events after it in the log.
public struct SessionRecord: Sendable {
    /// The session id (`s_…`).
    public let id: String
    /// The SHA-256 of its bearer token.
    public let tokenHash: [UInt8]
    /// The version its ``state`` shows.
    public let version: Int
    /// The `seq` of the newest event of that version (0 when none).
    public let lastEvent: Int
    /// The `seq` its log starts from: 1, or after the events of an older store that were not kept.
    public let firstEvent: Int
    /// The version of the app description it runs (at ``version``).
    public let appVersion: String
    /// Its state without history (the tree, flags, pending target), in the core's own format.
    public let state: [UInt8]
    /// When a request last used it, in seconds since 1970.
    public let lastUsed: Double
    /// When it was made, in seconds since 1970; `nil` for a session stored before this was kept.
    /// Only a creation writes it.
    public let createdAt: Double?

    /// Creates a record.
    public init(
        id: String, tokenHash: [UInt8], version: Int, lastEvent: Int, firstEvent: Int, appVersion: String, state: [UInt8], lastUsed: Double,
        createdAt: Double?
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.version = version
        self.lastEvent = lastEvent
        self.firstEvent = firstEvent
        self.appVersion = appVersion
        self.state = state
        self.lastUsed = lastUsed
        self.createdAt = createdAt
    }
}

/// One event of a session's log, in the core's own format.
public struct EventRecord: Sendable {
    /// Its `seq`.
    public let seq: Int
    /// The encoded event.
    public let body: [UInt8]
    /// Whether it carries a checkpoint of the session's state, from which earlier versions are
    /// rebuilt: a store that drops old events keeps the newest such event before the kept ones.
    public let carriesCheckpoint: Bool
    /// The session version it made, when written (a store need not read it back): a store finds
    /// the checkpoint to rebuild an earlier version from by it.
    public let version: Int?

    /// Creates a record.
    public init(seq: Int, body: [UInt8], carriesCheckpoint: Bool = false, version: Int? = nil) {
        self.seq = seq
        self.body = body
        self.carriesCheckpoint = carriesCheckpoint
        self.version = version
    }
}

/// One kept version of a node's list.
public struct ListRecord: Sendable {
    /// The node's id (`n4`).
    public let node: String
    /// The list version.
    public let version: Int
    /// The encoded sections.
    public let body: [UInt8]

    /// Creates a record.
    public init(node: String, version: Int, body: [UInt8]) {
        self.node = node
        self.version = version
        self.body = body
    }
}

/// A remembered answer to a request with an `Idempotency-Key`.
public struct AnswerRecord: Sendable {
    /// The key.
    public let key: String
    /// When it was remembered, in seconds since 1970.
    public let storedAt: Double
    /// The encoded answer and the fingerprint of the request it answered.
    public let body: [UInt8]

    /// Creates a record.
    public init(key: String, storedAt: Double, body: [UInt8]) {
        self.key = key
        self.storedAt = storedAt
        self.body = body
    }
}

/// Everything stored of one session that a live session needs.
public struct StoredSession: Sendable {
    /// Its own row.
    public var record: SessionRecord
    /// Its events after the head's `lastEvent` (from which its current state is rebuilt), and
    /// at least the newest as many as asked for, oldest first.
    public var events: [EventRecord]
    /// Every kept list version, by node and then version, oldest first.
    public var lists: [ListRecord]
    /// Its remembered answers, oldest first.
    public var answers: [AnswerRecord]

    /// Its newest stored event: the head's, or the newest after it.
    var newestEvent: Int {
        max(record.lastEvent, events.last?.seq ?? 0)
    }

    /// Bundles what was read.
    public init(record: SessionRecord, events: [EventRecord], lists: [ListRecord], answers: [AnswerRecord]) {
        self.record = record
        self.events = events
        self.lists = lists
        self.answers = answers
    }
}

extension SessionRecord {
    /// This row as a version-checked write leaves the stored one: its head (version, newest
    /// event, app version, state, last use) over what only a creation sets.
    func replacingHead(of stored: SessionRecord) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: stored.tokenHash, version: version, lastEvent: lastEvent, firstEvent: stored.firstEvent, appVersion: appVersion,
            state: state, lastUsed: lastUsed, createdAt: stored.createdAt)
    }

    /// This row, last used at `lastUsed`.
    func used(at lastUsed: Double) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: tokenHash, version: version, lastEvent: lastEvent, firstEvent: firstEvent, appVersion: appVersion, state: state,
            lastUsed: lastUsed, createdAt: createdAt)
    }
}
