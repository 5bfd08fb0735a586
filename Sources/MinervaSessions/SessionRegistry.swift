import Locking

/// The sessions this process has in memory, by id. Its lock is held only to find, add or
/// drop one, never while a request works on a session.
final class SessionRegistry: Sendable {
    private let sessions = Locked<[String: LiveSession]>([:])

    /// The session with this id, if it is in memory.
    func session(_ id: String) -> LiveSession? {
        sessions.withLock { $0[id] }
    }

    /// Adds a session, unless one with its id is there already.
    /// - Returns: the session in memory with that id afterwards.
    func insert(_ session: LiveSession) -> LiveSession {
        sessions.withLock { sessions in
            if let present = sessions[session.id] { return present }
            sessions[session.id] = session
            return session
        }
    }

    /// Drops a session from memory.
    func remove(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// Every session in memory.
    var all: [LiveSession] {
        sessions.withLock { Array($0.values) }
    }
}
