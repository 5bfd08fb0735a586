public import MinervaCoordinator
public import MinervaModel
public import MinervaList

extension SessionCore {
    /// The events of a session after `after`: from memory when its in-memory log reaches back
    /// far enough, else from the store (read outside the session's lock).
    /// - Throws: `unauthorized` for a session that is gone, `unavailable` when the store cannot be read.
    public func eventPage(of session: LiveSession, after: Int) throws(SessionError) -> EventPage {
        let (state, log) = try copy(of: session)
        return try history.page(of: session.id, state, log, after: after)
    }

    /// The diff of a node's list from version `since` to its current one. A version that the
    /// session's in-memory history forgot (to keep within its budget) is read from the store,
    /// which keeps every version a diff may start from.
    /// - Returns: the diff, or `reload` when `since` is older than the versions kept.
    /// - Throws: `notFound` when the node has no list, `invalid` for a `since` ahead of the list,
    ///   `unavailable` when the store cannot be read.
    public func listAnswer(of session: LiveSession, in state: SessionState, node: NodeID, since: Int) throws(SessionError)
        -> ListHistory.Answer
    {
        try history.listAnswer(of: session.id, in: state, node: node, since: since)
    }

    /// The session as it was at `version` (its `lastEvent` the newest event of that version), for
    /// every version its kept log can rebuild: from the oldest checkpoint the log keeps (version 1
    /// while no event was dropped; a log that drops events keeps the newest checkpoint before the
    /// kept ones, so at least from the version before the oldest kept event) to the current one.
    /// It is rebuilt forward from that checkpoint by replaying the events after it, from memory
    /// when the in-memory log reaches back far enough, else from the store; the session's lock is
    /// held only to copy its state and log.
    /// A list is included when the content it had then is still kept.
    /// - Throws: `notFound` for a version not kept (naming the versions that are) or ahead of the
    ///   session, `unauthorized` for a session that is gone, `unavailable` when the store cannot be read.
    public func pastState(of session: LiveSession, at version: Int) throws(SessionError) -> SessionState {
        try past(of: session, at: version).state
    }

    /// The earlier version a restore makes current again, rebuilt now (see ``pastState(of:at:)``);
    /// its errors are raised by the restore's step, after `Idempotency-Key` and `If-Match`.
    public func restoreTarget(of session: LiveSession, version: Int) -> RestoreTarget {
        RestoreTarget(version: version, past: Result { () throws(SessionError) in try past(of: session, at: version) })
    }

    /// The state at `version` and each list's version then.
    private func past(of session: LiveSession, at version: Int) throws(SessionError) -> PastState {
        let (state, log) = try copy(of: session)
        return try history.past(of: session.id, state, log, at: version)
    }

    /// The session's state and in-memory log, copied under its lock (both are values).
    private func copy(of session: LiveSession) throws(SessionError) -> (SessionState, SessionLog) {
        try session.slot.withLock { slot throws(SessionError) in
            guard !slot.turn.isClosed else { throw SessionError.unauthorized }
            return (slot.state, slot.log)
        }
    }
}
