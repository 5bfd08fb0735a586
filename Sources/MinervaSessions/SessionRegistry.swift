import Locking

/// The sessions this process has in memory, by id. Its lock is held only to find, add or
/// drop one, never while a request works on a session.
final class SessionRegistry: Sendable {
    private struct Table {
        var sessions: [String: LiveSession] = [:]
        /// How many of them run each app version.
        var byAppVersion: [String: Int] = [:]
    }

    private let table = Locked(Table())

    /// The session with this id, if it is in memory.
    func session(_ id: String) -> LiveSession? {
        table.withLock { $0.sessions[id] }
    }

    /// Adds a session, unless one with its id is there already.
    /// - Returns: the session in memory with that id afterwards.
    func insert(_ session: LiveSession) -> LiveSession {
        table.withLock { table in
            if let present = table.sessions[session.id] { return present }
            table.sessions[session.id] = session
            table.byAppVersion[session.appVersion, default: 0] += 1
            return session
        }
    }

    /// Drops a session from memory.
    func remove(_ id: String) {
        table.withLock { table in
            guard let removed = table.sessions.removeValue(forKey: id) else { return }
            table.byAppVersion[removed.appVersion, default: 1] -= 1
            if table.byAppVersion[removed.appVersion] == 0 { table.byAppVersion[removed.appVersion] = nil }
        }
    }

    /// Every session in memory.
    var all: [LiveSession] {
        table.withLock { Array($0.sessions.values) }
    }

    /// How many sessions in memory run each app version.
    var countsByAppVersion: [String: Int] {
        table.withLock { $0.byAppVersion }
    }
}
