import DequeModule

/// The answers of recent mutations by `Idempotency-Key`, so that a retry (a double tap, a
/// client's second attempt) gets the first answer again instead of applying twice.
struct IdempotencyCache: Sendable {
    /// A remembered answer and what it answered.
    struct Entry: Sendable {
        let key: IdempotencyKey
        let answer: StoredAnswer
        let storedAt: Double
    }

    private var entries: [String: Entry] = [:]
    private var order: Deque<String> = []
    /// How many keys are remembered at most; the oldest are forgotten first.
    let capacity: Int
    /// How long a key is remembered, in seconds.
    let lifetime: Double

    init(capacity: Int, lifetime: Double) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// The first answer to `key`, if it is remembered and still fresh.
    /// - Throws: `invalid` when the key was used for a different request.
    func answer(for key: IdempotencyKey, now: Double) throws(SessionError) -> StoredAnswer? {
        guard let entry = entries[key.key], now - entry.storedAt < lifetime else { return nil }
        guard entry.key.fingerprint == key.fingerprint else { throw .reusedKey(key.key) }
        return entry.answer
    }

    /// Remembers the answer to `key`.
    /// - Returns: the keys forgotten to make room or because they expired.
    @discardableResult
    mutating func remember(_ key: IdempotencyKey, answer: StoredAnswer, now: Double) -> [String] {
        remember(Entry(key: key, answer: answer, storedAt: now), now: now)
    }

    /// Remembers an entry (also one read back from storage).
    /// - Returns: the keys forgotten to make room or because they expired.
    @discardableResult
    mutating func remember(_ entry: Entry, now: Double) -> [String] {
        if entries.updateValue(entry, forKey: entry.key.key) == nil {
            order.append(entry.key.key)
        }
        var forgotten: [String] = []
        while order.count > capacity || (order.first.map { now - entries[$0]!.storedAt >= lifetime } ?? false) {
            let oldest = order.removeFirst()
            entries[oldest] = nil
            forgotten.append(oldest)
        }
        return forgotten
    }

    /// The remembered entry of `key`, fresh or not.
    func entry(for key: String) -> Entry? {
        entries[key]
    }
}

extension SessionError {
    /// The same `Idempotency-Key` came with a different request.
    static func reusedKey(_ key: String) -> SessionError {
        .invalid("Idempotency-Key '\(key.prefix(64))' was already used for a different request; use a new key")
    }
}
