import Dispatch

extension SessionCore {
    /// Drops the sessions unused for longer than the session TTL, in memory and in storage, and
    /// creation answers older than the idempotency lifetime.
    /// - Returns: how many sessions expired.
    @discardableResult
    public func expireIdleSessions() -> Int {
        let now = configuration.now()
        let cutoff = now - configuration.sessionTTL
        hub.prune()
        analytics.prunePaths()
        flushUsage(waiting: true)
        let ids: [String]
        do {
            ids = try store.expire(unusedSince: cutoff, answersBefore: now - configuration.idempotencyLifetime)
        } catch {
            logger.error("could not expire sessions in storage: \(error)")
            return 0
        }
        for id in ids {
            analytics.recordEnd(of: id, version: nil, reason: "expired", at: now)
            guard let session = registry.session(id) else {
                liveCount.subtract(1, ordering: .relaxed)
                continue
            }
            session.slot.withLock { slot in close(session, in: &slot) }
        }
        return ids.count
    }

    /// Writes to storage when sessions in memory were last used, so that expiry survives a
    /// restart and sees every instance's use.
    /// - Parameter waiting: whether to return only once the write has ended.
    public func flushUsage(waiting: Bool = false) {
        let since = configuration.now() - usageFlushWindow
        let usage = registry.all.filter { $0.lastUsed >= since }.map { (id: $0.id, lastUsed: $0.lastUsed) }
        guard !usage.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        let report = { @Sendable (outcome: Result<WriteOutcome, StorageError>) in
            if case .failure(let error) = outcome { self.logger.error("could not record session usage in storage: \(error)") }
        }
        let inline = writes.commit(.touch(usage)) {
            { outcome in
                report(outcome)
                done.signal()
            }
        }
        if let inline { report(inline) } else if waiting { done.wait() }
    }

    /// How far back ``flushUsage(waiting:)`` looks for sessions used: longer than the sweeper's interval.
    private var usageFlushWindow: Double { 120 }
}

extension SessionCore {
    /// Counts the sessions in a shared store again, with those other processes made or deleted.
    public func refreshSessionCount() {
        guard following.isShared else { return }
        do {
            liveCount.store(try store.sessionCount(), ordering: .relaxed)
        } catch {
            logger.warning("could not count the sessions in storage: \(error)")
        }
    }

    /// Whether the store can be used now; `nil` when it can, else why not. After a write was
    /// refused, it can once a probe write is taken again.
    public func storageProblem() -> String? {
        do throws(StorageError) {
            guard writeHealth.lastRefusal != nil else {
                try store.checkReachable()
                return nil
            }
            try store.checkWritable()
            writeHealth.note(Result<Void, StorageError>.success(()))
            return nil
        } catch {
            return writeHealth.lastRefusal == nil ? error.description : "it refuses writes (\(error))"
        }
    }

    /// Whether the store is shared with other processes and called over a network: requests that
    /// read it are then served off the HTTP threads.
    public var storageIsShared: Bool {
        following.isShared
    }
}
