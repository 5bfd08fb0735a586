extension SessionCore {
    /// A session in memory, checked against the shared store before use: another process may have
    /// changed it (then it is read again, and its followers here hear what they missed) or
    /// deleted it.
    /// - Returns: the session, or `nil` when it is no longer stored.
    /// - Throws: `unavailable` when the store cannot be read.
    func validate(_ session: LiveSession, in storage: any SharedSessionStorage) throws(SessionError) -> LiveSession? {
        let known = session.slot.withLock { SessionHead(version: $0.state.version, lastEvent: $0.state.lastEvent) }
        let reading: SessionReading
        do {
            reading = try storage.loadSession(session.id, eventTail: eventsInMemory, unlessAt: known)
        } catch {
            logger.error("could not check session \(session.id) in storage: \(error)")
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "storage cannot be read right now; retry later")
        }
        return session.slot.withLock { slot -> LiveSession? in
            switch reading {
            case .missing:
                close(session, in: &slot)
            case .unchanged:
                break
            case .changed(let stored):
                // A session busy with its own write catches up when that write ends.
                if slot.busy { slot.behind = true } else { adopt(stored, into: session, in: &slot) }
            }
            return slot.gone ? nil : session
        }
    }

    /// Catches up the sessions someone here follows with the shared store, for the commits whose
    /// notices were missed: those of a process that died before sending them, or sent while
    /// this one was not listening.
    func resyncFollowed() {
        guard let shared = storage as? any SharedSessionStorage else { return }
        let followed = hub.followed.filter { registry.session($0) != nil }
        guard !followed.isEmpty else { return }
        let stored: [String: Int]
        do {
            stored = try shared.lastEvents(of: followed)
        } catch {
            logger.warning("could not check followed sessions against storage: \(error)")
            return
        }
        for id in followed {
            catchUp(with: CommitNotice(session: id, lastEvent: stored[id] ?? 0, deleted: stored[id] == nil))
        }
    }

    /// Counts the sessions in the store again, with those other processes made or deleted.
    public func refreshSessionCount() {
        guard storage is any SharedSessionStorage else { return }
        do {
            if let count = try storage?.sessionCount() { liveCount.store(count, ordering: .relaxed) }
        } catch {
            logger.warning("could not count the sessions in storage: \(error)")
        }
    }

    /// Whether the store can be used now; `nil` when it can, else why not.
    public func storageProblem() -> String? {
        do {
            try storage?.checkReachable()
            return nil
        } catch {
            return error.description
        }
    }

    /// Whether the store is shared with other processes and called over a network: requests that
    /// read it are then served off the HTTP threads.
    public var storageIsShared: Bool {
        storage is any SharedSessionStorage
    }
}
