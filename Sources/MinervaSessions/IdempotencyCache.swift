import DequeModule
import MinervaModel

/// The answers of recent mutations by `Idempotency-Key`, so that a retry (a double tap, a
/// client's second attempt) gets the first answer again instead of applying twice. Bounded by
/// count, age and bytes: with a store, an answer memory forgot is read back from it.
struct IdempotencyCache: Sendable {
    /// A remembered answer and what it answered.
    struct Entry: Sendable {
        let key: IdempotencyKey
        let answer: StoredAnswer
        let storedAt: Double

        /// About what the entry takes in memory, in bytes.
        var byteCount: Int {
            64 + key.key.utf8.count + answer.body.count + answer.headers.reduce(0) { $0 + 32 + $1.name.utf8.count + $1.value.utf8.count }
        }
    }

    private var entries: [String: Entry] = [:]
    private var order: Deque<String> = []
    private var bytes = 0
    /// How many keys are remembered at most; the oldest are forgotten first.
    let capacity: Int
    /// How long a key is remembered, in seconds.
    let lifetime: Double
    /// How many bytes the remembered answers may take.
    let budget: Int

    init(capacity: Int, lifetime: Double, budget: Int = .max) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.budget = budget
    }

    /// The first answer to `key`, if it is remembered and still fresh.
    /// - Throws: `invalid` when the key was used for a different request.
    func answer(for key: IdempotencyKey, now: Double) throws(SessionError) -> StoredAnswer? {
        guard let entry = entries[key.key], now - entry.storedAt < lifetime else { return nil }
        guard entry.key.fingerprint == key.fingerprint else { throw .reusedKey(key.key) }
        return entry.answer
    }

    /// Remembers an answer (also one read back from storage); the oldest answers go while more
    /// than `capacity` keys or `budget` bytes are kept, and expired ones go too.
    mutating func remember(_ entry: Entry, now: Double) {
        if let replaced = entries.updateValue(entry, forKey: entry.key.key) {
            bytes -= replaced.byteCount
        } else {
            order.append(entry.key.key)
        }
        bytes += entry.byteCount
        while let oldest = order.first, order.count > capacity || bytes > budget || now - entries[oldest]!.storedAt >= lifetime {
            order.removeFirst()
            bytes -= entries.removeValue(forKey: oldest)!.byteCount
        }
    }
}

extension SessionError {
    /// The same `Idempotency-Key` came with a different request.
    static func reusedKey(_ key: String) -> SessionError {
        .invalid("Idempotency-Key '\(key.prefix(64))' was already used for a different request; use a new key")
    }
}
