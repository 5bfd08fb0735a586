extension SessionCore {
    /// Another process committed a change of a session: a session in memory that is behind reads
    /// its state again and publishes the events it missed, block by block, so that its followers
    /// here hear of every change. A session busy with its own write catches up when that write
    /// conflicts.
    func catchUp(with notice: CommitNotice) {
        guard let session = registry.session(notice.session) else { return }
        session.slot.withLock { slot in
            guard !slot.gone else { return }
            guard !slot.busy else {
                slot.behind = true
                return
            }
            if notice.deleted {
                close(session, in: &slot)
                return
            }
            // A session nobody follows here waits for its next use, which checks it anyway.
            guard slot.state.lastEvent < notice.lastEvent, hub.isFollowed(session.id) else { return }
            reload(session, in: &slot)
        }
    }

    /// Catches up with a commit of another process that arrived while this one's write was
    /// with storage.
    func catchUpIfBehind(_ session: LiveSession, in slot: inout LiveSession.Slot) {
        guard slot.behind, !slot.busy, !slot.gone else { return }
        slot.behind = false
        reload(session, in: &slot)
    }

    /// Reads the session from storage again, swaps it in and publishes the events newer than
    /// what this process had, block by block; a session gone from storage closes.
    func reload(_ session: LiveSession, in slot: inout LiveSession.Slot) {
        guard let storage else { return }
        slot.behind = false
        do {
            guard let stored = try storage.loadSession(session.id, eventTail: eventsInMemory) else {
                close(session, in: &slot)
                return
            }
            adopt(stored, into: session, in: &slot)
        } catch {
            logger.error("could not read session \(session.id) again from storage: \(error)")
        }
    }

    /// Swaps in what storage holds of a session now, when it is newer than what this process
    /// has, and publishes the events this process had not, block by block.
    func adopt(_ stored: StoredSession, into session: LiveSession, in slot: inout LiveSession.Slot) {
        guard stored.record.version > slot.state.version || stored.record.lastEvent > slot.state.lastEvent else { return }
        do {
            // Another process may have moved it to a version this one has not run yet.
            let app = try self.app(ofVersion: stored.record.appVersion) ?? slot.state.tree.app
            let fresh = try restore(stored, app: app)
            let known = slot.state.lastEvent
            var missed: [SessionEvent] = fresh.log.events.filter { $0.seq > known }
            // Events older than the read tail are fetched only for followers to hear.
            if let storage, let first = missed.first?.seq, first > known + 1, hub.isFollowed(session.id) {
                let older = try storage.events(of: session.id, after: known, through: first - 1)
                missed = try older.map { try SessionEvent(record: $0) } + missed
            }
            liveNodes.add(fresh.state.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
            slot.state = fresh.state
            slot.appGeneration = -1
            if slot.log.events.last?.seq == known, fresh.log.events.first?.seq == known + 1 {
                // Only what was missed was read: the log goes on from what it has.
                slot.log.append(fresh.log.events, keep: eventsInMemory, budget: historyBudget.events)
            } else {
                slot.log = fresh.log
            }
            slot.answers = fresh.answers
            var start = missed.startIndex
            while start < missed.endIndex {
                let version = missed[start].version
                let end = missed[start...].firstIndex { $0.version != version } ?? missed.endIndex
                hub.publish(missed[start..<end], state: fresh.state, session: session.id)
                start = end
            }
        } catch {
            logger.error("could not catch session \(session.id) up with storage: \(error)")
        }
    }
}
