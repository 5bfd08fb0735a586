import Locking

/// Every live session by id. Its lock is held only to find, add or drop a session,
/// never while a request works on one.
final class SessionStore: Sendable {
    private let sessions = Locked<[String: Session]>([:])
    /// The most sessions held at once.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The session with this id, if it exists.
    func session(_ id: String) -> Session? {
        sessions.withLock { $0[id] }
    }

    /// Adds a session unless the store is full.
    /// - Returns: whether it was added.
    func insert(_ session: Session) -> Bool {
        sessions.withLock { table in
            guard table.count < capacity else { return false }
            table[session.id] = session
            return true
        }
    }

    /// Drops a session.
    func remove(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// Drops every session unused since `cutoff` (seconds since 1970).
    /// - Returns: the sessions dropped.
    func expire(unusedSince cutoff: Double) -> [Session] {
        sessions.withLock { table in
            let expired = table.values.filter { $0.lastUsed < cutoff }
            for session in expired { table[session.id] = nil }
            return expired
        }
    }

    /// Every live session.
    var all: [Session] {
        sessions.withLock { Array($0.values) }
    }

    /// How many sessions are live.
    var count: Int {
        sessions.withLock { $0.count }
    }
}
