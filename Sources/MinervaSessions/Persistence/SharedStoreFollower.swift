import MinervaCoordinator
import MinervaModel

/// Keeps the sessions this process holds in memory in step with a store other processes write
/// too: every read checks the session's version in the store first (a change is checked by its
/// write), and the changes the others announce are replayed on the sessions held here, their
/// followers hearing every block, so that the next change here seldom starts from an older copy.
/// A session behind the store catches up by replaying the events it missed when it can, and is
/// read whole when it cannot.
/// The store is always read before a session's lock is taken; the lock is held only to swap.
///
/// What is stored is adopted at once, even while a write of this process is with the store, so
/// that no answer comes from a copy older than what the store held when its request arrived.
/// That write then either conflicts (it started from the older state, and runs again on the
/// adopted one) or was committed before the read that found it, which then holds it already.
struct SharedStoreFollower: SessionFollowing {
    let store: any SharedSessionStorage

    var isShared: Bool { true }

    func start(_ core: SessionCore) {
        SharedStoreMetrics.prepare()
        store.observeCommits(
            { [weak core] notice in
                SharedStoreMetrics.noticeHeard()
                if let core { catchUp(with: notice, core: core) }
            },
            resync: { [weak core] in if let core { resyncFollowed(core) } })
    }

    func followed(_ session: String) {
        store.followingChanged()
    }

    func validate(_ session: LiveSession, core: SessionCore) throws(SessionError) -> LiveSession? {
        let caughtUp: TailCatchUp
        do {
            caughtUp = try catchUp(session, core: core)
        } catch {
            core.logger.error("could not check session \(session.id) in storage: \(error)")
            throw .storeUnreadable
        }
        switch caughtUp {
        case .missing:
            session.slot.withLock { core.close(session, in: &$0) }
            return nil
        case .done:
            return session.slot.withLock { $0.turn.isClosed } ? nil : session
        case .wholeReadNeeded:
            break
        }
        let known = session.slot.withLock { SessionHead(version: $0.state.version, lastEvent: $0.state.lastEvent) }
        let reading: SessionReading
        let read = ContinuousClock.now
        do {
            reading = try store.loadSession(session.id, eventTail: core.eventsInMemory, unlessAt: known)
        } catch {
            core.logger.error("could not check session \(session.id) in storage: \(error)")
            throw .storeUnreadable
        }
        var older: [EventRecord] = []
        if case .changed(let stored) = reading {
            older = olderEvents(of: session, before: stored, after: known.lastEvent, core: core)
            prepareApp(of: stored, core: core)
        }
        return session.slot.withLock { slot -> LiveSession? in
            switch reading {
            case .missing:
                core.close(session, in: &slot)
            case .unchanged:
                slot.confirmedAt = max(slot.confirmedAt, read)
            case .changed(let stored):
                adopt(stored, older: older, into: session, in: &slot, core: core)
                // Unless the session holds a newer state already (a write of this process that
                // committed meanwhile, confirmed then) or could not take what was read.
                if slot.state.lastEvent == stored.newestEvent { slot.confirmedAt = max(slot.confirmedAt, read) }
            }
            return slot.turn.isClosed ? nil : session
        }
    }

    func reload(_ session: LiveSession, core: SessionCore) {
        do {
            switch try catchUp(session, core: core) {
            case .missing: return session.slot.withLock { core.close(session, in: &$0) }
            case .done: return
            case .wholeReadNeeded: break
            }
        } catch {
            core.logger.error("could not read session \(session.id) again from storage: \(error)")
            return
        }
        // Another reload may swap in between the read and the lock: then read again.
        for _ in 0..<3 {
            let known = session.slot.withLock { $0.state.lastEvent }
            let stored: StoredSession?
            let read = ContinuousClock.now
            do {
                stored = try store.loadSession(session.id, eventTail: core.eventsInMemory)
            } catch {
                core.logger.error("could not read session \(session.id) again from storage: \(error)")
                return
            }
            let older = stored.map { olderEvents(of: session, before: $0, after: known, core: core) } ?? []
            if let stored { prepareApp(of: stored, core: core) }
            let done = session.slot.withLock { slot -> Bool in
                guard !slot.turn.isClosed else { return true }
                guard slot.state.lastEvent == known else { return false }
                if let stored { adopt(stored, older: older, into: session, in: &slot, core: core) } else { core.close(session, in: &slot) }
                if slot.state.lastEvent == stored?.newestEvent { slot.confirmedAt = max(slot.confirmedAt, read) }
                return true
            }
            if done { return }
        }
    }

    func checkNotAhead(_ recorded: String, current: String, of id: String, core: SessionCore) throws(SessionError) {
        guard recorded != current else { return }
        let generations: [String: Int]
        do {
            generations = try store.appVersionGenerations(recorded, current)
        } catch {
            core.logger.error("could not compare app versions in storage: \(error)")
            throw .storeUnreadable
        }
        guard generations[recorded, default: 0] > generations[current, default: 0] else { return }
        throw SessionError(
            .appVersionConflict,
            "session \(id) already runs a newer version of the app (\(recorded.prefix(12))) than this server (\(current.prefix(12))); "
                + "retry: the servers are being updated one by one")
    }

    func announce(_ version: String) throws(StorageError) {
        try store.announceAppVersion(version)
    }

    /// How catching a session up from its stored tail went.
    private enum TailCatchUp {
        /// It is not stored: the session is closed.
        case missing
        /// It holds what the store held when the tail was read, or something newer.
        case done
        /// The tail cannot be replayed on it (a list's new cells, a restore, another app version,
        /// events the store no longer keeps): the whole session is read.
        case wholeReadNeeded
    }

    /// Reads the session's stored head and the events after those it holds (one small read,
    /// the head's state not among it) and replays those events on its state, block by block, as
    /// a client that mirrors a session does (``SessionState/replay(_:)``), publishing each block.
    private func catchUp(_ session: LiveSession, core: SessionCore) throws(StorageError) -> TailCatchUp {
        let known = session.slot.withLock { $0.state.lastEvent }
        let read = ContinuousClock.now
        guard let tail = try store.loadTail(of: session.id, after: known) else { return .missing }
        return replay(
            tail.events, after: known, through: max(tail.head.lastEvent, tail.events.last?.seq ?? known), appVersion: tail.appVersion,
            on: session, head: .read(tail.head), confirmedAt: read, core: core)
    }

    /// What a replay learns of the session's stored head.
    private enum HeadLearned {
        /// The head as read: when another process wrote it since, it may be of an earlier
        /// release's format, which the next change must write again (see ``SessionState/read``);
        /// this process cannot tell without reading it, so its next change writes a head.
        case read(SessionHead)
        /// What the replayed change wrote, by a process of a release that carries changes in its
        /// notices (its head of the current format): the head written, or `nil` when it stayed.
        case written(SessionHead?)
    }

    /// Replays the `records` after `known` through `newest` on the session, when it holds
    /// `known` and they can be replayed, and publishes each block.
    /// - Parameter confirmedAt: when the store was read (the session is then confirmed as of
    ///   that moment); `nil` for a change a notice carried, which says not that nothing is newer.
    private func replay(
        _ records: [EventRecord], after known: Int, through newest: Int, appVersion: String, on session: LiveSession, head: HeadLearned,
        confirmedAt: ContinuousClock.Instant?, core: SessionCore
    ) -> TailCatchUp {
        let events = try? records.map { record throws(SnapshotError) in try SessionEvent(record: record) }
        return session.slot.withLock { slot -> TailCatchUp in
            guard !slot.turn.isClosed else { return .done }
            // A write of this process committed meanwhile, or another read swapped: what the
            // session holds is as new as what was read, or the whole session is read.
            guard slot.state.lastEvent == known else { return slot.state.lastEvent >= newest ? .done : .wholeReadNeeded }
            if newest == known {
                if let confirmedAt { slot.confirmedAt = max(slot.confirmedAt, confirmedAt) }
                return .done
            }
            guard let events, Self.replays(events, after: known, through: newest), appVersion == slot.state.appVersion else {
                return .wholeReadNeeded
            }
            var state = slot.state
            var blocks: [ArraySlice<SessionEvent>] = []
            var start = events.startIndex
            for (index, event) in events.enumerated() where event.isFinal {
                let block = events[start...index]
                // A restore's block (nodes brought back, ids below the counter) says not where
                // each stood: the session is read whole, as a mirroring client reads it.
                guard !Self.restores(block, nextNode: state.tree.idCounters.nextNode) else { return .wholeReadNeeded }
                state.replay(Array(block))
                blocks.append(block)
                start = index + 1
            }
            core.liveNodes.add(state.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
            slot.state = state
            switch head {
            case .read(let stored):
                SharedStoreMetrics.reloaded()
                if stored != slot.storedHead { slot.storedHead = SessionState.headDue }
            case .written(let written):
                SharedStoreMetrics.changeReplayed()
                if let written { slot.storedHead = written }
            }
            if let confirmedAt { slot.confirmedAt = max(slot.confirmedAt, confirmedAt) }
            if slot.log.events.last?.seq == known {
                slot.log.append(events, keep: core.eventsInMemory, budget: core.historyBudget.events)
            } else {
                slot.log = SessionLog(events)
                slot.log.trim(keep: core.eventsInMemory, atLeast: 0, budget: core.historyBudget.events)
            }
            for block in blocks { core.hub.publish(block, state: state, session: session.id) }
            return .done
        }
    }

    /// Whether `events` are every event after `known` through `newest`, in whole blocks, each of
    /// which a replay brings about: none changes a list's cells or the app version.
    private static func replays(_ events: [SessionEvent], after known: Int, through newest: Int) -> Bool {
        guard let last = events.last, last.isFinal, last.seq == newest else { return false }
        for (offset, event) in events.enumerated() {
            guard event.seq == known + 1 + offset else { return false }
            switch event.change {
            case .listChanged, .appChanged: return false
            case .navigation, .exposed, .unchanged: continue
            }
        }
        return true
    }

    /// Whether a block is a restore's: it removes nodes for a restore, or adds one with an id
    /// made before (below `nextNode`, the counter before the block).
    private static func restores(_ block: ArraySlice<SessionEvent>, nextNode: Int) -> Bool {
        block.contains { event in
            switch event.change {
            case .navigation(.removed(let removed)): removed.reason == .restore
            case .navigation(.added(let added)): added.node.number < nextNode
            default: false
            }
        }
    }

    /// Another process committed a change of a session: a session held here replays the change
    /// the notice carries when it holds the event before it; otherwise one followed here that is
    /// behind reads its state again and publishes the events it missed, and one nobody follows
    /// here catches up on its next use.
    private func catchUp(with notice: CommitNotice, core: SessionCore) {
        guard let session = core.registry.session(notice.session) else { return }
        if !notice.deleted, let change = notice.change, let first = change.events.first {
            let replayed = replay(
                change.events, after: first.seq - 1, through: notice.lastEvent, appVersion: change.appVersion, on: session,
                head: .written(change.head), confirmedAt: nil, core: core)
            if replayed == .done { return }
        }
        let stale = session.slot.withLock { slot -> Bool in
            guard !slot.turn.isClosed else { return false }
            if notice.deleted {
                core.close(session, in: &slot)
                return false
            }
            return slot.state.lastEvent < notice.lastEvent && core.hub.isFollowed(session.id)
        }
        if stale { reload(session, core: core) }
    }

    /// Catches up the sessions someone here follows, for the commits whose notices were missed:
    /// those of a process that died before sending them, or sent while this one was not listening.
    private func resyncFollowed(_ core: SessionCore) {
        // A token another instance revoked ends what it follows here within a second.
        core.endRevokedFollowers()
        let followed = core.hub.followed.filter { core.registry.session($0) != nil }
        guard !followed.isEmpty else { return }
        let stored: [String: Int]
        do {
            stored = try store.lastEvents(of: followed)
        } catch {
            core.logger.warning("could not check followed sessions against storage: \(error)")
            return
        }
        for id in followed {
            catchUp(with: CommitNotice(session: id, lastEvent: stored[id] ?? 0, deleted: stored[id] == nil), core: core)
        }
    }

    /// The events between what this process has (`after`) and the tail read with `stored`, for
    /// the session's followers here to hear (nobody else needs them: none when nobody follows).
    private func olderEvents(of session: LiveSession, before stored: StoredSession, after known: Int, core: SessionCore) -> [EventRecord] {
        guard let first = stored.events.first?.seq, first > known + 1, core.hub.isFollowed(session.id) else { return [] }
        do {
            return try store.events(of: session.id, after: known, through: first - 1)
        } catch {
            core.logger.error("could not read the events of session \(session.id) from storage: \(error)")
            return []
        }
    }

    /// Reads the app description of the version a stored session runs now, before the session's
    /// lock is taken, so that ``adopt(_:older:into:in:core:)`` finds it read (an error is met again there).
    private func prepareApp(of stored: StoredSession, core: SessionCore) {
        _ = try? core.apps.app(ofVersion: stored.record.appVersion)
    }

    /// Swaps in what the store holds of a session now, when it is newer than what this process
    /// has, and publishes the events this process had not, block by block.
    private func adopt(_ stored: StoredSession, older: [EventRecord], into session: LiveSession, in slot: inout LiveSession.Slot, core: SessionCore) {
        do {
            // Another process may have moved it to a version this one has not run yet.
            let app = try core.apps.app(ofVersion: stored.record.appVersion) ?? slot.state.tree.app
            let fresh = try core.restore(stored, app: app)
            guard fresh.state.lastEvent > slot.state.lastEvent else { return }
            SharedStoreMetrics.reloaded()
            let known = slot.state.lastEvent
            // Every event read, not the log's newest only: a catch-up may cover more than the log keeps.
            let missed = try older.filter { $0.seq > known }.map { try SessionEvent(record: $0) } + fresh.events.filter { $0.seq > known }
            core.liveNodes.add(fresh.state.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
            slot.state = fresh.state
            slot.storedHead = fresh.storedHead
            slot.turn.appGeneration = -1
            if slot.log.events.last?.seq == known, fresh.log.events.first?.seq == known + 1 {
                // Only what was missed was read: the log goes on from what it has.
                slot.log.append(fresh.log.events, keep: core.eventsInMemory, budget: core.historyBudget.events)
            } else {
                slot.log = fresh.log
            }
            slot.answers = fresh.answers
            var start = missed.startIndex
            while start < missed.endIndex {
                let version = missed[start].version
                let end = missed[start...].firstIndex { $0.version != version } ?? missed.endIndex
                core.hub.publish(missed[start..<end], state: fresh.state, session: session.id)
                start = end
            }
        } catch {
            core.logger.error("could not catch session \(session.id) up with storage: \(error)")
        }
    }
}
