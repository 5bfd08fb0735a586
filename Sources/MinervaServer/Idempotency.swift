import DequeModule
import MicroHTTP

/// The answers of recent mutations by `Idempotency-Key`, so that a retry (a double tap, a
/// client's second attempt) gets the first answer again instead of applying twice.
struct IdempotencyCache: Sendable {
    /// A remembered answer and what it answered.
    struct Entry: Sendable {
        let key: String
        let fingerprint: UInt64
        let response: HTTPResponse
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
    /// - Throws: `422` when the key was used for a different request.
    func answer(for key: String, fingerprint: UInt64, now: Double) throws(APIError) -> HTTPResponse? {
        guard let entry = entries[key], now - entry.storedAt < lifetime else { return nil }
        guard entry.fingerprint == fingerprint else {
            throw .unprocessable("Idempotency-Key \(Excerpt(key)) was already used for a different request; use a new key")
        }
        return entry.response
    }

    /// Remembers the answer to `key`.
    /// - Returns: the keys forgotten to make room or because they expired.
    @discardableResult
    mutating func remember(_ key: String, fingerprint: UInt64, response: HTTPResponse, now: Double) -> [String] {
        if entries.updateValue(Entry(key: key, fingerprint: fingerprint, response: response, storedAt: now), forKey: key) == nil {
            order.append(key)
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

    /// Every remembered entry, oldest first (for persistence).
    var all: [Entry] {
        order.map { entries[$0]! }
    }
}

/// The `Idempotency-Key` of a request and the fingerprint of what it asks.
struct IdempotencyKey {
    let key: String
    let fingerprint: UInt64

    /// Reads the header; `nil` when absent.
    /// - Throws: `400` for a key that is empty, longer than 255 characters or not printable ASCII.
    init?(_ request: HTTPRequest) throws(APIError) {
        guard let key = request.header("idempotency-key") else { return nil }
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw .invalidRequest("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces")
        }
        self.key = key
        fingerprint = Self.fnv1a([Array(request.method.utf8), Array(request.path.utf8), request.body])
    }

    /// FNV-1a over the parts with a separator, stable across runs (unlike `Hasher`).
    static func fnv1a(_ parts: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0xFF) &* 0x100_0000_01b3
        }
        return hash
    }
}
