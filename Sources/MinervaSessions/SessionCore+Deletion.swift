import Dispatch

/// Receives a deletion's outcome once it is durable (or refused).
public typealias DeletionCompletion = @Sendable (Result<Void, SessionError>) -> Void

extension SessionCore {
    /// Deletes a session: its token stops working and its followers get the end of the log.
    /// - Parameters:
    ///   - precondition: the versions the client accepts (`If-Match`); `nil` accepts any.
    ///   - completion: called with the outcome when it is not known at once.
    /// - Returns: the outcome when it is known at once; `completion` is then not called.
    public func delete(
        _ session: LiveSession, precondition: (@Sendable (Int) -> Bool)?, completion: @escaping DeletionCompletion
    ) -> Result<Void, SessionError>? {
        session.slot.withLock { slot in
            guard !slot.busy else {
                slot.waiting.append(.deletion(precondition: precondition, completion))
                return nil
            }
            return startDeletion(of: session, precondition: precondition, in: &slot, completion: completion)
        }
    }

    func startDeletion(
        of session: LiveSession, precondition: (@Sendable (Int) -> Bool)?, in slot: inout LiveSession.Slot,
        completion: @escaping DeletionCompletion
    ) -> Result<Void, SessionError>? {
        guard !slot.gone else { return .failure(.unauthorized) }
        do throws(SessionError) {
            try Self.check(precondition, version: slot.state.version)
        } catch {
            return .failure(error)
        }
        guard let committer else {
            close(session, in: &slot)
            return .success(())
        }
        slot.busy = true
        committer.submit(.delete(id: session.id)) { outcome in
            session.slot.withLock { slot in
                slot.busy = false
                switch outcome {
                case .success:
                    self.close(session, in: &slot)
                    completion(.success(()))
                case .failure(let error):
                    self.logger.error("could not delete session \(session.id) from storage: \(error)")
                    completion(.failure(SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the session could not be deleted from storage; retry later")))
                }
                self.runWaiting(session, in: &slot)
            }
        }
        return nil
    }

    /// The session is gone: out of memory, its followers told, its waiting work refused.
    func close(_ session: LiveSession, in slot: inout LiveSession.Slot) {
        guard !slot.gone else { return }
        slot.gone = true
        registry.remove(session.id)
        liveCount.subtract(1, ordering: .relaxed)
        liveNodes.subtract(slot.state.tree.nodes.count, ordering: .relaxed)
        hub.end(session.id)
        fail(slot.waiting, with: .unauthorized)
        slot.waiting = []
    }

    /// Drops the sessions unused for longer than the session TTL, in memory and in storage, and
    /// creation answers older than the idempotency lifetime.
    /// - Returns: how many sessions expired.
    @discardableResult
    public func expireIdleSessions() -> Int {
        let now = configuration.now()
        let cutoff = now - configuration.sessionTTL
        hub.prune()
        guard let storage else {
            var expired = 0
            for session in registry.all where session.lastUsed < cutoff {
                session.slot.withLock { slot in
                    guard !slot.busy, !slot.gone, session.lastUsed < cutoff else { return }
                    close(session, in: &slot)
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
