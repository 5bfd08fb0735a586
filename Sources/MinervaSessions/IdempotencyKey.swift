/// An `Idempotency-Key` and the fingerprint of the request it came with: a retry with the same
/// key and fingerprint gets the first answer again; the same key with another fingerprint is refused.
public struct IdempotencyKey: Sendable, Hashable {
    /// The key as the client sent it.
    public let key: String
    /// A stable hash of what the request asked (method, path, body).
    public let fingerprint: UInt64

    /// Pairs a key with its request's fingerprint.
    public init(key: String, fingerprint: UInt64) {
        self.key = key
        self.fingerprint = fingerprint
    }
}

/// An answer as it is remembered for an `Idempotency-Key`: whatever the API sent.
public struct StoredAnswer: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields.
    public let headers: [(name: String, value: String)]
    /// The body.
    public let body: [UInt8]
    /// Whether this answer repeats one given before to a request with the same key (never stored).
    public private(set) var isReplay = false

    /// Creates an answer.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension StoredAnswer {
    /// The same answer, given again to a retry with the same key.
    func replayed() -> StoredAnswer {
        var copy = self
        copy.isReplay = true
        return copy
    }
}
