public import MinervaModel

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
            switch slot.turn.arrive(.deletion(precondition: precondition, completion)) {
            case .start: startDeletion(of: session, precondition: precondition, in: &slot, completion: completion)
            case .wait: nil
            case .refuse: .failure(.unauthorized)
            }
        }
    }

    func startDeletion(
        of session: LiveSession, precondition: (@Sendable (Int) -> Bool)?, in slot: inout LiveSession.Slot,
        completion: @escaping DeletionCompletion
    ) -> Result<Void, SessionError>? {
        guard !slot.turn.isClosed else { return .failure(.unauthorized) }
        do throws(SessionError) {
            try Self.check(precondition, of: slot.state)
        } catch {
            return .failure(error)
        }
        let settle = { @Sendable (outcome: Result<WriteOutcome, StorageError>, slot: inout LiveSession.Slot) -> Result<Void, SessionError> in
            switch outcome {
            case .success:
                self.close(session, in: &slot)
                self.analytics.recordEnd(of: session.id, version: slot.state.version, reason: "deleted", at: self.configuration.now())
                return .success(())
            case .failure(let error):
                self.logger.error("could not delete session \(session.id) from storage: \(error)")
                return .failure(SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the session could not be deleted from storage; retry later"))
            }
        }
        let inline = writes.commit(.delete(id: session.id)) {
            { outcome in
                self.endWrite(of: session) { slot in
                    let result = settle(outcome, &slot)
                    return [{ completion(result) }]
                }
            }
        }
        guard let inline else {
            slot.turn.beginWrite()
            return nil
        }
        return settle(inline, &slot)
    }

    /// The session is gone: out of memory, its followers told, its waiting work refused.
    func close(_ session: LiveSession, in slot: inout LiveSession.Slot) {
        guard !slot.turn.isClosed else { return }
        let waiting = slot.turn.close()
        registry.remove(session.id)
        liveCount.subtract(1, ordering: .relaxed)
        liveNodes.subtract(slot.state.tree.nodes.count, ordering: .relaxed)
        hub.end(session.id)
        fail(waiting, with: .unauthorized)
    }
}
