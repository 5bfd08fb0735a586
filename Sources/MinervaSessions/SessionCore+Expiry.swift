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
        guard let storage else {
            var expired = 0
            for session in registry.all where session.lastUsed < cutoff {
                session.slot.withLock { slot in
                    guard !slot.busy, !slot.gone, session.lastUsed < cutoff else { return }
                    close(session, in: &slot)
                    analytics.recordEnd(of: session.id, version: slot.state.version, reason: "expired", at: now)
                    expired += 1
                }
            }
            return expired
        }
        flushUsage(waiting: true)
        let ids: [String]
        do {
            ids = try storage.expire(unusedSince: cutoff, answersBefore: now - configuration.idempotencyLifetime)
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
        guard let committer else { return }
        let since = configuration.now() - usageFlushWindow
        let usage = registry.all.filter { $0.lastUsed >= since }.map { (id: $0.id, lastUsed: $0.lastUsed) }
        guard !usage.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        committer.submit(.touch(usage)) { outcome in
            if case .failure(let error) = outcome { self.logger.error("could not record session usage in storage: \(error)") }
            done.signal()
        }
        if waiting { done.wait() }
    }

    /// How far back ``flushUsage(waiting:)`` looks for sessions used: longer than the sweeper's interval.
    private var usageFlushWindow: Double { 120 }
}
