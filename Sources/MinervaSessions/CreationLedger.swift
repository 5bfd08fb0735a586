import Locking
import MinervaModel

/// The `Idempotency-Key`s of `POST /v1/sessions`: answers remembered, and creations under way,
/// so that a retry that arrives while the first request is still being stored waits for its answer
/// instead of creating a second session.
final class CreationLedger: Sendable {
    /// What a key's creation should do.
    enum Turn {
        /// The key was answered before: answer the same.
        case answered(StoredAnswer)
        /// The key is new: create, then ``finish(_:entry:now:)``.
        case create
        /// The first request with this key is being stored; the completion was queued for its answer.
        case wait
    }

    private struct State {
        var answered: IdempotencyCache
        var underWay: [String: (fingerprint: UInt64, waiting: [CreationCompletion])] = [:]
    }

    private let state: Locked<State>

    init(lifetime: Double) {
        state = Locked(State(answered: IdempotencyCache(capacity: 100_000, lifetime: lifetime)))
    }

    /// Looks a key up and, when it is new, marks its creation under way.
    /// - Throws: `invalid` when the key came with a different request.
    func turn(for key: IdempotencyKey, now: Double, waiting completion: @escaping CreationCompletion) throws(SessionError) -> Turn {
        try state.withLock { state throws(SessionError) in
            if let answer = try state.answered.answer(for: key, now: now) { return .answered(answer) }
            if let underWay = state.underWay[key.key] {
                guard underWay.fingerprint == key.fingerprint else { throw .reusedKey(key.key) }
                state.underWay[key.key]!.waiting.append(completion)
                return .wait
            }
            state.underWay[key.key] = (key.fingerprint, [])
            return .create
        }
    }

    /// Ends a key's creation: remembers its answer (or, when it failed, forgets the key).
    /// - Returns: the completions of retries that waited for it.
    func finish(_ key: IdempotencyKey, entry: IdempotencyCache.Entry?, now: Double) -> [CreationCompletion] {
        state.withLock { state in
            if let entry { state.answered.remember(entry, now: now) }
            return state.underWay.removeValue(forKey: key.key)?.waiting ?? []
        }
    }
}
