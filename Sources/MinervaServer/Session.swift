import DequeModule
import Locking
import MicroHTTP
import MinervaCoordinator
import MinervaList
import Synchronization

/// One client's session: its secret and its navigation state behind its own lock.
final class Session: Sendable {
    /// The public id (`s_…`).
    let id: String
    /// The SHA-256 of the bearer token that every request on this session must carry;
    /// the token itself is never kept.
    let tokenHash: [UInt8]
    /// Everything that changes, serialised per session.
    let state: Locked<SessionState>
    /// The session's request budget.
    private let limiter: Locked<RateLimiter?>
    /// When a request last used the session (milliseconds since 1970).
    private let lastUsedMilliseconds: Atomic<Int>

    init(id: String, tokenHash: [UInt8], state: SessionState, rateLimit: Double, rateBurst: Double, lastUsed: Double) {
        self.id = id
        self.tokenHash = tokenHash
        self.state = Locked(state)
        limiter = Locked(rateLimit > 0 ? RateLimiter(rate: rateLimit, burst: max(1, rateBurst), now: lastUsed) : nil)
        lastUsedMilliseconds = Atomic(Int(lastUsed * 1000))
    }

    /// Whether `candidate` is this session's token, compared in constant time.
    func authorizes(_ candidate: String) -> Bool {
        Token.matches(candidate, hash: tokenHash)
    }

    /// Counts a request against the budget and marks the session used.
    /// - Throws: `429` with `Retry-After` when the budget is spent.
    func admit(now: Double) throws(APIError) {
        lastUsedMilliseconds.store(Int(now * 1000), ordering: .relaxed)
        if let wait = limiter.withLock({ $0?.take(now: now) }) {
            throw .rateLimited(retryAfter: wait)
        }
    }

    /// When a request last used the session, in seconds since 1970.
    var lastUsed: Double {
        Double(lastUsedMilliseconds.load(ordering: .relaxed)) / 1000
    }
}

/// A session's mutable state: the tree, its version and recent events.
struct SessionState: Sendable {
    /// The coordinator tree.
    var tree: CoordinatorTree
    /// Starts at 1 and grows by one with every successful mutation.
    var version = 1
    /// The newest events, oldest first.
    var events: Deque<NavigationEvent> = []
    /// Each node's list, for the nodes that have one.
    var lists: [NodeID: ListHistory] = [:]
    /// Answers of recent mutations by `Idempotency-Key`.
    var idempotency: IdempotencyCache
    /// Long polls waiting for an event after their `after`.
    var waiters: [(after: Int, deferred: HTTPDeferred)] = []
    /// Server-sent event streams following the session.
    var subscribers: [HTTPStream] = []
    /// How many events are kept.
    let eventHistory: Int

    init(tree: CoordinatorTree, eventHistory: Int, idempotency: IdempotencyCache) {
        self.tree = tree
        self.eventHistory = eventHistory
        self.idempotency = idempotency
    }

    /// Records a successful mutation and the events it caused; lists of removed nodes go with them.
    mutating func commit(_ newEvents: [NavigationEvent]) {
        version += 1
        if !lists.isEmpty {
            for event in newEvents {
                if case .removed = event.kind { lists[event.node] = nil }
            }
        }
        events.append(contentsOf: newEvents)
        if events.count > eventHistory {
            events.removeFirst(events.count - eventHistory)
        }
        if !newEvents.isEmpty { notifyListeners(of: newEvents) }
    }

    /// Answers the long polls and feeds the streams with new events.
    private mutating func notifyListeners(of newEvents: [NavigationEvent]) {
        for waiter in waiters {
            waiter.deferred.complete(EventsDocument.response(self, after: waiter.after))
        }
        waiters = []
        guard !subscribers.isEmpty else { return }
        let frames = EventsDocument.serverSentEvents(newEvents)
        subscribers.removeAll { !$0.send(frames) }
    }

    /// Ends every long poll (with what there is) and every stream: the session is going away.
    mutating func closeListeners() {
        for waiter in waiters {
            waiter.deferred.complete(EventsDocument.response(self, after: waiter.after))
        }
        waiters = []
        for stream in subscribers { stream.finish() }
        subscribers = []
    }
}
