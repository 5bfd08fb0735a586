import Logging
import MinervaCoordinator
import MinervaList
import MinervaModel

/// Reads a session's kept history: pages of its change log, diffs from older list versions, and
/// earlier versions rebuilt from the log's checkpoints — from memory while it reaches back far
/// enough, else from the store. It works on a copy of the session's state and in-memory log,
/// so the session's lock is held only to take the copy.
struct SessionHistory: Sendable {
    let store: any SessionStorage
    let configuration: SessionConfiguration
    let logger: Logger

    /// The page of a session's log after `after`, given its state and in-memory log.
    func page(of session: String, _ state: SessionState, _ log: SessionLog, after: Int) throws(SessionError) -> EventPage {
        let oldestKept = state.oldestKeptEvent(history: configuration.eventHistory)
        var truncated = after < oldestKept - 1 && after < state.lastEvent
        let from = max(after, oldestKept - 1)
        let inMemoryFrom = log.events.first.map { $0.seq - 1 } ?? state.lastEvent
        guard from < inMemoryFrom else {
            let start = max(0, from - inMemoryFrom)
            let events = start < log.events.count ? Array(log.events.dropFirst(start)) : []
            return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
        }
        let events = try storedEvents(of: session) { () throws(StorageError) in try store.events(of: session, after: from, through: state.lastEvent) }
        // A write in flight may have dropped old events from the store since the state was read.
        if (events.first?.seq ?? state.lastEvent + 1) > from + 1 { truncated = true }
        return EventPage(events: events, last: state.lastEvent, truncated: truncated, version: state.version)
    }

    /// The diff of a node's list from version `since` to its current one. A version that the
    /// session's in-memory history forgot (to keep within its budget) is read from the store,
    /// which keeps every version a diff may start from.
    /// - Returns: the diff, or `reload` when `since` is older than the versions kept.
    /// - Throws: `notFound` when the node has no list, `invalid` for a `since` ahead of the list,
    ///   `unavailable` when the store cannot be read.
    func listAnswer(of session: String, in state: SessionState, node: NodeID, since: Int) throws(SessionError)
        -> ListHistory.Answer
    {
        guard let history = state.lists[node] else { throw .notFound("node '\(node)' has no list yet; PUT one first") }
        let answer: ListHistory.Answer
        do throws(ListError) {
            answer = try history.diff(since: since)
        } catch {
            throw .invalid(error.description)
        }
        guard case .reload = answer, since >= max(1, history.version - history.retainedVersions) else { return answer }
        do {
            guard let record = try store.listVersion(of: session, node: node.description, version: since) else { return .reload }
            let old = try ListContent(record: record.body)
            return .diff(ListDiff(from: old, to: history.current, fromVersion: since, toVersion: history.version))
        } catch {
            logger.error("could not read list version \(since) of \(node) in session \(session) from storage: \(error)")
            throw .storeUnreadable
        }
    }

    /// The state at `version` and each list's version then.
    func past(of session: String, _ state: SessionState, _ log: SessionLog, at version: Int) throws(SessionError) -> PastState {
        guard version <= state.version else {
            throw .notFound("version \(version) is ahead of this session, which is at version \(state.version)")
        }
        if version == state.version {
            let lists = state.lists.mapValues(\.version)
            return PastState(state: state, listVersions: lists, removedSince: [], newestListVersions: lists)
        }
        var events = Array(log.events)
        if let past = try rebuild(version, of: state, from: events, session: session) { return past }
        if (events.first?.seq ?? state.lastEvent + 1) > state.firstEvent {
            // One range from the newest checkpoint early enough; the whole kept log when the
            // store cannot tell which that is (events stored before their version was).
            events = try storedEvents(of: session) { () throws(StorageError) in
                try store.events(of: session, rebuilding: version, through: state.lastEvent)
            }
            if let past = try rebuild(version, of: state, from: events, session: session) { return past }
            events = try storedEvents(of: session) { () throws(StorageError) in
                try store.events(of: session, after: state.firstEvent - 1, through: state.lastEvent)
            }
            if let past = try rebuild(version, of: state, from: events, session: session) { return past }
        }
        let oldest = events.lazy.compactMap { try? self.checkpoint(of: $0, app: state.tree.app)?.version }.first ?? state.version
        throw .notFound("version \(version) is no longer kept; this session can go back to versions \(oldest) to \(state.version)")
    }

    /// The state at `version` rebuilt from `events` (the log from some point to the newest
    /// event, without gaps), or `nil` when they hold no checkpoint at or before it.
    private func rebuild(_ version: Int, of state: SessionState, from events: [SessionEvent], session: String) throws(SessionError)
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
        // Nodes whose list was numbered from 1 again since (a first list after the node came
        // back): the store no longer keeps what their list was then.
        var restartedSince: Set<NodeID> = []
        // Each node's newest list version in the log, then or since: a node that comes back
        // numbers its list after it.
        var newestLists = checkpoint.lists
        // The version each list's diff then started from: for a checkpoint's lists, what the
        // checkpoint's own block said (a list that came back with a restore diffs from 0), when
        // the log still holds it, else the one before.
        var listsFrom = checkpoint.lists.mapValues { $0 - 1 }
        let ownBlock = events.lazy.filter { $0.version == checkpoint.version }
        for event in ownBlock {
            if case .listChanged(let node, let list, let from) = event.change, checkpoint.lists[node] == list { listsFrom[node] = from }
        }
        // The app version then: what the first move to another version after it moved from.
        var appVersion: String?
        // The root flow of the session's last switch after it.
        var flowSwitchedSince: String?
        // The experiments it was exposed to after it.
        var exposedSince: Set<String> = []
        for event in events[first...] where event.version > checkpoint.version {
            guard event.version <= version else {
                lastEvent = min(lastEvent, event.seq - 1)
                switch event.change {
                case .navigation(.removed(let removed)): removedSince.insert(removed.node)
                case .listChanged(let node, let list, _):
                    if list == 1 { restartedSince.insert(node) }
                    newestLists[node] = max(newestLists[node] ?? 0, list)
                case .appChanged(let from, _) where appVersion == nil: appVersion = from
                case .navigation(.flowChanged(let change)): flowSwitchedSince = change.to
                case .exposed(let experiment, _): exposedSince.insert(experiment)
                default: break
                }
                continue
            }
            switch event.change {
            case .navigation(let change):
                block.append(change)
                if case .removed(let removed) = change { lists[removed.node] = nil }
            case .listChanged(let node, let list, let from):
                lists[node] = list
                listsFrom[node] = from
                newestLists[node] = max(newestLists[node] ?? 0, list)
            case .appChanged, .exposed, .unchanged:
                break
            }
            if event.isFinal {
                tree.replay(block, version: event.version, counters: event.counters)
                block = []
            }
        }
        var pastLists: [NodeID: ListHistory] = [:]
        for (node, list) in lists where !restartedSince.contains(node) {
            let current = removedSince.contains(node) ? nil : state.lists[node]
            guard let content = try listContent(node, version: list, current: current, session: session) else { continue }
            // With the version its diff then started from, so that the list reads back with that diff too.
            let from = listsFrom[node] ?? list - 1
            if from > 0, let previous = try listContent(node, version: from, current: current, session: session) {
                pastLists[node] = try? ListHistory(keptVersions: [(from, previous), (list, content)], retainedVersions: configuration.limits.listHistory)
            } else {
                pastLists[node] = ListHistory(firstVersion: list, content: content, retainedVersions: configuration.limits.listHistory)
            }
        }
        // Memberships are the session's for its life; an exposure after the version had not happened yet.
        var memberships = state.experiments
        for experiment in exposedSince { memberships[experiment]?.exposedAt = nil }
        let past = SessionState(
            tree: tree, appVersion: appVersion ?? state.appVersion, firstEvent: 1, version: version, lastEvent: lastEvent, structuralVersion: version,
            lists: pastLists, listHistoryBudget: .max, experiments: memberships)
        return PastState(
            state: past, listVersions: lists, removedSince: removedSince, newestListVersions: newestLists, flowSwitchedSince: flowSwitchedSince)
    }

    /// Events of a session read from the store by `read`, decoded.
    private func storedEvents(of session: String, _ read: () throws(StorageError) -> [EventRecord]) throws(SessionError) -> [SessionEvent] {
        do {
            return try read().map { record throws in try SessionEvent(record: record) }
        } catch {
            logger.error("could not read the events of session \(session) from storage: \(error)")
            throw .storeUnreadable
        }
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

    /// The content a node's list had at `version`: in memory, or in the store, which keeps every
    /// version a kept event shows (also those of nodes removed since).
    private func listContent(_ node: NodeID, version: Int, current: ListHistory?, session: String) throws(SessionError) -> ListContent? {
        if let kept = current?.keptVersions.first(where: { $0.version == version }) { return kept.content }
        do {
            guard let record = try store.listVersion(of: session, node: node.description, version: version) else { return nil }
            return try ListContent(record: record.body)
        } catch {
            logger.error("could not read list version \(version) of \(node) in session \(session) from storage: \(error)")
            throw .storeUnreadable
        }
    }
}
