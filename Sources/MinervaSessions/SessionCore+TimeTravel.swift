import MinervaCoordinator
import MinervaJSON
import MinervaList

extension SessionCore {
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
    func past(of session: LiveSession, at version: Int) throws(SessionError) -> PastState {
        let (state, log) = try session.slot.withLock { slot throws(SessionError) in
            guard !slot.gone else { throw SessionError.unauthorized }
            return (slot.state, slot.log)
        }
        guard version <= state.version else {
            throw .notFound("version \(version) is ahead of this session, which is at version \(state.version)")
        }
        if version == state.version { return PastState(state: state, listVersions: state.lists.mapValues(\.version), removedSince: []) }
        var events = Array(log.events)
        if let past = try rebuild(version, of: state, from: events, session: session) { return past }
        if (events.first?.seq ?? state.lastEvent + 1) > state.firstEvent {
            do {
                events = try store.events(of: session.id, after: state.firstEvent - 1, through: state.lastEvent).map { record throws in
                    try SessionEvent(record: record)
                }
            } catch {
                logger.error("could not read the events of session \(session.id) from storage: \(error)")
                throw .storeUnreadable
            }
            if let past = try rebuild(version, of: state, from: events, session: session) { return past }
        }
        let oldest = events.lazy.compactMap { try? self.checkpoint(of: $0, app: state.tree.app)?.version }.first ?? state.version
        throw .notFound("version \(version) is no longer kept; this session can go back to versions \(oldest) to \(state.version)")
    }

    /// The state at `version` rebuilt from `events` (the log from some point to the newest
    /// event, without gaps), or `nil` when they hold no checkpoint at or before it.
    private func rebuild(_ version: Int, of state: SessionState, from events: [SessionEvent], session: LiveSession) throws(SessionError)
        -> PastState?
    {
        let app = state.tree.app
        var start: (index: Int, checkpoint: Checkpoint)?
        for index in events.indices.reversed() where events[index].checkpoint != nil && events[index].version - 1 <= version {
            if let checkpoint = try checkpoint(of: events[index], app: app), checkpoint.version <= version {
                start = (index, checkpoint)
                break
            }
        }
        guard let (first, checkpoint) = start else { return nil }
        var tree = checkpoint.tree
        var lists = checkpoint.lists
        var block: [NavigationEvent] = []
        var lastEvent = state.lastEvent
        var removedSince: Set<NodeID> = []
        // The app version then: what the first move to another version after it moved from.
        var appVersion: String?
        for event in events[first...] where event.version > checkpoint.version {
            guard event.version <= version else {
                lastEvent = min(lastEvent, event.seq - 1)
                switch event.change {
                case .navigation(.removed(let removed)): removedSince.insert(removed.node)
                case .appChanged(let from, _) where appVersion == nil: appVersion = from
                default: break
                }
                continue
            }
            switch event.change {
            case .navigation(let change):
                block.append(change)
                if case .removed(let removed) = change { lists[removed.node] = nil }
            case .listChanged(let node, let list, _):
                lists[node] = list
            case .appChanged:
                break
            }
            if event.isFinal {
                tree.replay(block, version: event.version)
                block = []
            }
        }
        var past = SessionState(tree: tree, appVersion: appVersion ?? state.appVersion)
        past.version = version
        past.lastEvent = lastEvent
        for (node, list) in lists where !removedSince.contains(node) {
            if let content = try listContent(node, version: list, current: state.lists[node], session: session) {
                past.lists[node] = try? ListHistory(keptVersions: [(list, content)], retainedVersions: configuration.listHistory)
            }
        }
        return PastState(state: past, listVersions: lists, removedSince: removedSince)
    }

    /// The checkpoint an event carries, read with `app`.
    private func checkpoint(of event: SessionEvent, app: AppDescription) throws(SessionError) -> Checkpoint? {
        guard let bytes = event.checkpoint else { return nil }
        do throws(SnapshotError) {
            return try Checkpoint(bytes: bytes, app: app)
        } catch {
            logger.error("a checkpoint of event \(event.seq) cannot be read: \(error)")
            return nil
        }
    }

    /// The content a node's list had at `version`: in memory, or in the store while it keeps it.
    private func listContent(_ node: NodeID, version: Int, current: ListHistory?, session: LiveSession) throws(SessionError) -> ListContent? {
        guard let current, version <= current.version else { return nil }
        if let kept = current.keptVersions.first(where: { $0.version == version }) { return kept.content }
        guard version >= max(1, current.version - current.retainedVersions) else { return nil }
        do {
            guard let record = try store.listVersion(of: session.id, node: node.description, version: version) else { return nil }
            return try ListContent(record: record.body)
        } catch {
            logger.error("could not read list version \(version) of \(node) in session \(session.id) from storage: \(error)")
            throw .storeUnreadable
        }
    }
}
