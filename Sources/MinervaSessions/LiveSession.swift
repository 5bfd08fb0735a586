import Locking
import MinervaModel
import Synchronization

/// A session the core serves: its secret, its state behind its own lock, and its turn
/// (``SessionTurn``): one mutation of a session is stored at a time, the next waits in line, so
/// that every step starts from a state storage has accepted.
public final class LiveSession: Sendable {
    /// What changes, serialised per session.
    struct Slot: Sendable {
        /// The state storage has accepted: what every read sees.
        var state: SessionState
        /// The newest events of its change log.
        var log: SessionLog
        /// Answers of its recent mutations by `Idempotency-Key`.
        var answers: IdempotencyCache
        /// The version and newest event of the session's head in the store (the state a reader
        /// starts from, replaying the events after it).
        var storedHead: SessionHead
        /// Whose turn it is to change the session, and the work waiting for it.
        var turn = SessionTurn()
        /// By when ``state`` was known to be what the store holds (a read found it so, or this
        /// process's write of it committed; an instant no later than that). On a store other
        /// processes write, a change that arrived after it and ends without a write of its own
        /// asks the store first (see ``SessionCore/start(_:of:in:completion:attempt:confirmed:)``).
        var confirmedAt: ContinuousClock.Instant
    }

    /// A mutation or deletion waiting for the session's turn.
    enum QueuedWork: Sendable {
        case mutation(Mutation, MutationCompletion)
        case deletion(precondition: (@Sendable (Int) -> Bool)?, DeletionCompletion)
    }

    /// The public id (`s_…`).
    public let id: String
    /// The SHA-256 of the bearer token; the session keeps no token (a keyed creation's answer is
    /// stored sealed under its Idempotency-Key, see ``CreationSealing``).
    let tokenHash: [UInt8]
    /// When the session was made, in seconds since 1970 (`nil`: stored before this was kept).
    let createdAt: Double?
    let slot: Locked<Slot>
    private let limiter: Locked<RateLimiter?>
    private let lastUsedMilliseconds: Atomic<Int>

    init(
        id: String, tokenHash: [UInt8], state: SessionState, storedHead: SessionHead, log: SessionLog, answers: IdempotencyCache,
        configuration: SessionConfiguration, lastUsed: Double, createdAt: Double?, confirmedAt: ContinuousClock.Instant = .now
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        slot = Locked(Slot(state: state, log: log, answers: answers, storedHead: storedHead, confirmedAt: confirmedAt))
        let rate = configuration.rateLimit
        limiter = Locked(rate > 0 ? RateLimiter(rate: rate, burst: max(1, configuration.rateBurst), now: lastUsed) : nil)
        lastUsedMilliseconds = Atomic(Int(lastUsed * 1000))
    }

    /// Whether `candidate` is this session's token, compared in constant time.
    func authorizes(_ candidate: String) -> Bool {
        Token.matches(candidate, hash: tokenHash)
    }

    /// Counts a request against the session's budget and marks the session used.
    /// - Throws: `rateLimited` when the budget is spent.
    func admit(now: Double) throws(SessionError) {
        lastUsedMilliseconds.store(Int(now * 1000), ordering: .relaxed)
        if let wait = limiter.withLock({ $0?.take(now: now) }) {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw SessionError(.rateLimited(retryAfter: wait), "too many requests on this session; retry in \(seconds) s")
        }
    }

    /// When a request last used the session, in seconds since 1970.
    var lastUsed: Double {
        Double(lastUsedMilliseconds.load(ordering: .relaxed)) / 1000
    }
}
