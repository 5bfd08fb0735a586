/// A mutation as the API hands it to the core.
public struct Mutation: Sendable {
    /// What to do.
    public var command: SessionCommand
    /// The versions the client accepts (`If-Match`); `nil` accepts any.
    public var precondition: (@Sendable (Int) -> Bool)?
    /// The request's `Idempotency-Key`, if any.
    public var idempotencyKey: IdempotencyKey?
    /// Builds the answer from the state the mutation produced (or, for a no-op, the unchanged
    /// one); it is remembered for the `Idempotency-Key` and stored with the mutation.
    public var answer: @Sendable (SessionState) -> StoredAnswer

    /// Creates a mutation.
    public init(
        command: SessionCommand, precondition: (@Sendable (Int) -> Bool)?, idempotencyKey: IdempotencyKey?,
        answer: @escaping @Sendable (SessionState) -> StoredAnswer
    ) {
        self.command = command
        self.precondition = precondition
        self.idempotencyKey = idempotencyKey
        self.answer = answer
    }
}

/// How a mutation ended well.
public struct MutationResult: Sendable {
    /// The answer to send.
    public let answer: StoredAnswer
    /// The block of events it appended (empty for a no-op or a remembered answer).
    public let events: ArraySlice<SessionEvent>
    /// Whether the answer is a remembered one (a retry with the same `Idempotency-Key`).
    public let replayed: Bool
}

/// Receives a mutation's outcome once it is durable (or refused).
public typealias MutationCompletion = @Sendable (Result<MutationResult, SessionError>) -> Void

extension SessionCore {
    /// Runs a mutation: its step, then store → swap → publish.
    /// - Parameters:
    ///   - session: the session, from ``session(_:token:)``.
    ///   - mutation: what to do.
    ///   - completion: called with the outcome when it is not known at once (the write is with
    ///     storage, or the session was busy with another write).
    /// - Returns: the outcome when it is known at once (a refusal, a no-op, a remembered answer,
    ///   or any mutation without storage); `completion` is then not called.
    public func mutate(
        _ session: LiveSession, _ mutation: Mutation, completion: @escaping MutationCompletion
    ) -> Result<MutationResult, SessionError>? {
        session.slot.withLock { slot in
            guard !slot.busy else {
                slot.waiting.append(.mutation(mutation, completion))
                return nil
            }
            return start(mutation, of: session, in: &slot, completion: completion)
        }
    }

    /// Checks a version precondition now (for a request refused before its step: `412` comes first).
    /// - Throws: `preconditionFailed` when the current version does not satisfy it.
    public func checkPrecondition(_ session: LiveSession, _ precondition: (@Sendable (Int) -> Bool)?) throws(SessionError) {
        guard let precondition else { return }
        try read(session) { state throws(SessionError) in try Self.check(precondition, version: state.version) }
    }

    static func check(_ precondition: (@Sendable (Int) -> Bool)?, version: Int) throws(SessionError) {
        guard let precondition, !precondition(version) else { return }
        throw SessionError(
            .preconditionFailed(current: version), "If-Match does not name the current version \"\(version)\"; fetch the session again and retry")
    }

    /// The step, under the session's lock: a remembered answer, the precondition, the command on
    /// a copy, the limits; then either the swap (no storage) or the write handed to storage.
    /// - Returns: the outcome, or `nil` when the write is with storage (the slot is then busy).
    /// - Parameter attempt: how many times the mutation's write conflicted with another process's already.
    func start(
        _ mutation: Mutation, of session: LiveSession, in slot: inout LiveSession.Slot, completion: @escaping MutationCompletion,
        attempt: Int = 0
    ) -> Result<MutationResult, SessionError>? {
        guard !slot.gone else { return .failure(.unauthorized) }
        let now = configuration.now()
        do throws(SessionError) {
            if let key = mutation.idempotencyKey, let answer = try slot.state.idempotency.answer(for: key, now: now) {
                return .success(MutationResult(answer: answer, events: [], replayed: true))
            }
            try Self.check(mutation.precondition, version: slot.state.version)
            var next = slot.state
            let changes = try mutation.command.apply(to: &next, configuration: configuration)
            guard
                let block = next.recordBlock(
                    changes, from: slot.state, at: Int(now * 1000), keep: eventsInMemory, historyBudget: historyBudget)
            else {
                // A no-op: no version, no event; its answer is still remembered for its key.
                return remember(
                    mutation, answer: mutation.answer(slot.state), events: [], in: slot.state, of: session, slot: &slot, now: now,
                    completion: completion, attempt: attempt)
            }
            try checkLimits(next)
            return remember(
                mutation, answer: mutation.answer(next), events: block, in: next, of: session, slot: &slot, now: now, completion: completion,
                attempt: attempt)
        } catch {
            return .failure(error)
        }
    }

    /// Remembers the answer for the mutation's key in the state it produced, then swaps it in
    /// and publishes (no storage) or hands its write to storage.
    private func remember(
        _ mutation: Mutation, answer: StoredAnswer, events block: ArraySlice<SessionEvent>, in produced: SessionState,
        of session: LiveSession, slot: inout LiveSession.Slot, now: Double, completion: @escaping MutationCompletion, attempt: Int
    ) -> Result<MutationResult, SessionError>? {
        var next = produced
        var forgotten: [String] = []
        if let key = mutation.idempotencyKey { forgotten = next.idempotency.remember(key, answer: answer, now: now) }
        let result = MutationResult(answer: answer, events: block, replayed: false)
        if block.isEmpty, mutation.idempotencyKey == nil { return .success(result) }
        guard let committer else {
            liveNodes.add(next.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
            slot.state = next
            if !block.isEmpty { hub.publish(block, state: next, session: session.id) }
            return .success(result)
        }
        let write = next.write(
            from: slot.state, id: session.id, tokenHash: session.tokenHash, lastUsed: session.lastUsed,
            rememberedKey: mutation.idempotencyKey?.key, forgottenKeys: forgotten, eventHistory: configuration.eventHistory)
        slot.busy = true
        let accepted = next
        committer.submit(.session(write)) { outcome in
            self.finish(mutation, of: session, next: accepted, result: result, outcome: outcome, completion: completion, attempt: attempt)
        }
        return nil
    }

    /// Refuses a state over the session's limits.
    private func checkLimits(_ state: SessionState) throws(SessionError) {
        let nodes = state.tree.nodes.count
        guard nodes <= configuration.maxNodes else {
            throw .conflict("the session would hold \(nodes) nodes, over its limit of \(configuration.maxNodes) (--max-nodes); pop or dismiss first")
        }
        guard state.byteCount <= configuration.maxSessionBytes else {
            throw .conflict(
                "the session would hold \(state.byteCount) bytes of params and lists, over its limit of \(configuration.maxSessionBytes) (--max-session-bytes); pop, dismiss or shrink a list first"
            )
        }
    }

    /// Storage has answered a mutation's write: swap and publish when it is durable, then give
    /// the outcome and let the next waiting work start. When another process changed the
    /// session first (the version-checked write conflicted), the session catches up and the
    /// mutation runs again on what is stored now, a few times at most.
    private func finish(
        _ mutation: Mutation, of session: LiveSession, next: SessionState, result: MutationResult,
        outcome: Result<WriteOutcome, StorageError>, completion: @escaping MutationCompletion, attempt: Int
    ) {
        session.slot.withLock { slot in
            slot.busy = false
            switch outcome {
            case .success(.committed):
                liveNodes.add(next.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
                slot.state = next
                if !result.events.isEmpty { hub.publish(result.events, state: next, session: session.id) }
                completion(.success(result))
            case .success(.conflict):
                guard attempt < 3 else {
                    logger.error("session \(session.id) kept changing in storage under this process; gave up after \(attempt + 1) writes")
                    completion(.failure(SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the session is changing too fast; retry")))
                    break
                }
                reload(session, in: &slot)
                if let outcome = start(mutation, of: session, in: &slot, completion: completion, attempt: attempt + 1) { completion(outcome) }
            case .failure(let error):
                logger.error("could not store a change of session \(session.id): \(error)")
                completion(.failure(.notStored("the change")))
            }
            runWaiting(session, in: &slot)
        }
    }

    /// Refuses work that waited for the session's turn.
    func fail(_ waiting: some Sequence<LiveSession.QueuedWork>, with error: SessionError) {
        for work in waiting {
            switch work {
            case .mutation(_, let completion): completion(.failure(error))
            case .deletion(_, let completion): completion(.failure(error))
            }
        }
    }

    /// Starts the work that waited for the session's turn, until one of them hands a write to storage.
    func runWaiting(_ session: LiveSession, in slot: inout LiveSession.Slot) {
        while !slot.busy, let work = slot.waiting.popFirst() {
            switch work {
            case .mutation(let mutation, let completion):
                if let outcome = start(mutation, of: session, in: &slot, completion: completion) { completion(outcome) }
            case .deletion(let precondition, let completion):
                if let outcome = startDeletion(of: session, precondition: precondition, in: &slot, completion: completion) {
                    completion(outcome)
                }
            }
        }
    }
}
