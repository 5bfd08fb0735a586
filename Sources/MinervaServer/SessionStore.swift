import Synchronization

/// Every live session by id. Its lock is held only to find, add or drop a session,
/// never while a request works on one.
final class SessionStore: Sendable {
    private let sessions = Mutex<[String: Session]>([:])
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

    /// How many sessions are live.
    var count: Int {
        sessions.withLock { $0.count }
    }
}
