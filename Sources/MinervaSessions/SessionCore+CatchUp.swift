extension SessionCore {
    /// Another process committed a change of a session: a session in memory that is behind reads
    /// its state again and publishes the events it missed, block by block, so that its followers
    /// here hear of every change. A session busy with its own write catches up when that write
    /// conflicts.
    func catchUp(with notice: CommitNotice) {
        guard let session = registry.session(notice.session) else { return }
        session.slot.withLock { slot in
            guard !slot.busy, !slot.gone else { return }
            if notice.deleted {
                close(session, in: &slot)
                return
            }
            guard slot.state.lastEvent < notice.lastEvent else { return }
            _ = reload(session, in: &slot)
        }
    }

    /// Reads the session's state from storage again, swaps it in and publishes the events
    /// newer than what this process had; a session gone from storage ends.
    /// - Returns: whether the session is still there.
    @discardableResult
    func reload(_ session: LiveSession, in slot: inout LiveSession.Slot) -> Bool {
        guard let storage else { return true }
        do {
            guard let stored = try storage.loadSession(session.id, eventTail: eventsInMemory) else {
                close(session, in: &slot)
                return false
            }
            let fresh = try SessionState(stored: stored, app: app, configuration: configuration)
            let known = slot.state.lastEvent
            var missed: [SessionEvent] = fresh.events.filter { $0.seq > known }
            if let first = missed.first?.seq, first > known + 1 {
                let older = try storage.events(of: session.id, after: known, limit: first - known - 1)
                missed = try older.map { try SessionEvent(record: $0) } + missed
            }
            liveNodes.add(fresh.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
            slot.state = fresh
            var start = missed.startIndex
            while start < missed.endIndex {
                let version = missed[start].version
                let end = missed[start...].firstIndex { $0.version != version } ?? missed.endIndex
                hub.publish(missed[start..<end], state: fresh, session: session.id)
                start = end
            }
        } catch {
            logger.error("could not read session \(session.id) again from storage: \(error)")
        }
        return true
    }
}
