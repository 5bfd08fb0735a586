import Locking
import MinervaModel

/// Who follows which session. The core publishes a mutation's events here only after storage
/// has accepted the mutation, so no subscriber ever sees an event a later read would not show.
final class EventHub: Sendable {
    private let subscribers = Locked<[String: [any EventSubscriber]]>([:])

    /// Starts delivering a session's events to `subscriber`.
    /// - Returns: whether nobody followed the session before.
    @discardableResult
    func subscribe(_ subscriber: any EventSubscriber, to session: String) -> Bool {
        subscribers.withLock { table in
            table[session, default: []].append(subscriber)
            return table[session]!.count == 1
        }
    }

    /// Stops delivering to `subscriber`.
    func unsubscribe(_ subscriber: any EventSubscriber, from session: String) {
        subscribers.withLock { table in
            table[session]?.removeAll { $0 === subscriber }
            if table[session]?.isEmpty == true { table[session] = nil }
        }
    }

    /// Hands a block of events to everyone following the session, in order; those that stop
    /// following are dropped.
    func publish(_ events: ArraySlice<SessionEvent>, state: SessionState, session: String) {
        let current = subscribers.withLock { $0[session] }
        guard let current, !current.isEmpty else { return }
        var leaving: [ObjectIdentifier] = []
        for subscriber in current where !subscriber.receive(events, state: state) {
            leaving.append(ObjectIdentifier(subscriber))
        }
        guard !leaving.isEmpty else { return }
        subscribers.withLock { table in
            table[session]?.removeAll { leaving.contains(ObjectIdentifier($0)) }
            if table[session]?.isEmpty == true { table[session] = nil }
        }
    }

    /// Tells everyone following the session that it is gone, and forgets them.
    func end(_ session: String) {
        let current = subscribers.withLock { $0.removeValue(forKey: session) } ?? []
        for subscriber in current { subscriber.sessionEnded() }
    }

    /// Ends the subscribers that follow the session with one extra token (revoked), and forgets them.
    func end(_ session: String, grant: String) {
        let ended = subscribers.withLock { table -> [any EventSubscriber] in
            guard let current = table[session] else { return [] }
            let (gone, kept) = (current.filter { $0.grant == grant }, current.filter { $0.grant != grant })
            table[session] = kept.isEmpty ? nil : kept
            return gone
        }
        for subscriber in ended { subscriber.sessionEnded() }
    }

    /// The extra tokens (their ids) that subscribers follow with, by session.
    var grantFollowers: [String: Set<String>] {
        subscribers.withLock { table in
            var found: [String: Set<String>] = [:]
            for (session, current) in table {
                for subscriber in current { if let grant = subscriber.grant { found[session, default: []].insert(grant) } }
            }
            return found
        }
    }

    /// Forgets subscribers that no longer listen.
    func prune() {
        subscribers.withLock { table in
            for key in Array(table.keys) { Self.prune(key, in: &table) }
        }
    }

    /// Forgets the session's subscribers that no longer listen (a stream whose client left).
    func prune(_ session: String) {
        subscribers.withLock { Self.prune(session, in: &$0) }
    }

    private static func prune(_ session: String, in table: inout [String: [any EventSubscriber]]) {
        table[session]?.removeAll { !$0.isActive }
        if table[session]?.isEmpty == true { table[session] = nil }
    }

    /// Whether someone follows the session.
    func isFollowed(_ session: String) -> Bool {
        subscribers.withLock { $0[session] != nil }
    }

    /// The ids of the sessions someone follows.
    var followed: [String] {
        subscribers.withLock { Array($0.keys) }
    }

    /// How many subscribers follow sessions.
    var count: Int {
        subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }
}
