public import MinervaModel
import Dispatch
import MinervaCoordinator

extension SessionCore {
    /// Runs a mutation: its step, then store → swap → publish.
    /// - Parameters:
    ///   - session: the session, from ``session(_:token:checkingStore:)``.
    ///   - mutation: what to do.
    ///   - completion: called with the outcome when it is not known at once (the write is with
    ///     storage, or the session was busy with another write).
    /// - Returns: the outcome when it is known at once (a refusal, a no-op, a remembered answer,
    ///   or any mutation of a store that commits inline); `completion` is then not called.
    public func mutate(
        _ session: LiveSession, _ mutation: Mutation, completion: @escaping MutationCompletion
    ) -> Result<MutationResult, SessionError>? {
        mutate(session, mutation, deferring: { completion })
    }

    /// Runs a mutation, as ``mutate(_:_:completion:)`` does, making its completion only when the
    /// outcome is not known at once: an answer given at once costs no deferred answer.
    /// - Parameter deferring: makes the completion; called at most once, before this returns `nil`.
    public func mutate(
        _ session: LiveSession, _ mutation: Mutation, deferring: () -> MutationCompletion
    ) -> Result<MutationResult, SessionError>? {
        session.slot.withLock { slot in
            switch slot.turn.arrive(.mutation(mutation, deferring())) {
            case .start: start(mutation, of: session, in: &slot, completion: deferring)
            case .wait: nil
            case .refuse: .failure(.unauthorized)
            }
        }
    }

    /// Checks a version precondition now (for a request refused before its step: `412` comes
    /// first). On a store other processes write, the session is checked against the store
    /// first (a change's request skips that check before use).
    /// - Throws: `preconditionFailed` when the current version does not satisfy it.
    public func checkPrecondition(_ session: LiveSession, _ precondition: (@Sendable (Int) -> Bool)?) throws(SessionError) {
        guard let precondition else { return }
        if following.isShared, try following.validate(session, core: self) == nil { throw .unauthorized }
        try read(session) { state throws(SessionError) in try Self.check(precondition, of: state) }
    }

    /// Checks a version precondition against a state: any version from the newest that changed
    /// more than UI state to the current one satisfies it.
    static func check(_ precondition: (@Sendable (Int) -> Bool)?, of state: SessionState) throws(SessionError) {
        guard let precondition, !(state.structuralVersion...state.version).contains(where: precondition) else { return }
        let version = state.version
        throw SessionError(
            .preconditionFailed(current: version), "If-Match does not name the current version \"\(version)\"; fetch the session again and retry")
    }

    /// The step, under the session's lock: a remembered answer, the precondition, the command on
    /// a copy, the limits; then the write: settled at once when the store commits inline, else
    /// handed to the store's writer.
    /// An answer made from the session's state without a write of its own (a refusal, a no-op, a
    /// number applied already) is given only when that state was known to be the store's after
    /// the mutation arrived; on a store other processes write it may not be (the session was not
    /// checked before use, see ``session(_:token:checkingStore:)``), and the store is read first.
    /// - Parameters:
    ///   - attempt: how many times the mutation's write conflicted with another process's already.
    ///   - completion: makes the completion, once the write is handed to storage.
    ///   - confirmed: whether the store was read for this mutation already.
    /// - Returns: the outcome, or `nil` when the write is with the store's writer, or the store is
    ///   being read first (the session's turn is then held until it ends).
    func start(
        _ mutation: Mutation, of session: LiveSession, in slot: inout LiveSession.Slot, completion: () -> MutationCompletion,
        attempt: Int = 0, confirmed: Bool = false
    ) -> Result<MutationResult, SessionError>? {
        guard !slot.turn.isClosed else { return .failure(.unauthorized) }
        switch step(mutation, of: session, in: &slot, completion: completion, attempt: attempt) {
        case .stored(let outcome):
            return outcome
        case .fromState(let answer):
            guard following.isShared, !confirmed, slot.confirmedAt < mutation.arrival else { return answer }
            return confirmFirst(mutation, of: session, in: &slot, completion: completion, attempt: attempt)
        }
    }

    /// How a mutation's step ended.
    private enum StepOutcome {
        /// An answer made from the session's state alone: a refusal, a no-op, a number applied already.
        case fromState(Result<MutationResult, SessionError>)
        /// An answer the store stands behind: a remembered one, or its write's outcome (`nil`
        /// while the write is with the store's writer).
        case stored(Result<MutationResult, SessionError>?)
    }

    /// Reads the session from the store (its turn held meanwhile), then runs the mutation again
    /// on what it holds, answering from it whatever the step does.
    private func confirmFirst(
        _ mutation: Mutation, of session: LiveSession, in slot: inout LiveSession.Slot, completion: () -> MutationCompletion, attempt: Int
    ) -> Result<MutationResult, SessionError>? {
        slot.turn.beginWrite()
        let completion = completion()
        DispatchQueue.global().async {
            let checked = Result { () throws(SessionError) in try self.following.validate(session, core: self) }
            self.endWrite(of: session) { slot in
                if case .failure(let error) = checked { return [{ completion(.failure(error)) }] }
                return self.start(mutation, of: session, in: &slot, completion: { completion }, attempt: attempt, confirmed: true).map { outcome in
                    [{ completion(outcome) }]
                } ?? []
            }
        }
        return nil
    }

    /// The step, under the session's lock (see ``start(_:of:in:completion:attempt:confirmed:)``).
    private func step(
        _ mutation: Mutation, of session: LiveSession, in slot: inout LiveSession.Slot, completion: () -> MutationCompletion, attempt: Int
    ) -> StepOutcome {
        let now = configuration.now()
        do throws(SessionError) {
            if let key = mutation.idempotencyKey, let answer = try rememberedAnswer(for: key, of: session, in: &slot, now: now) {
                // A remembered answer is the one the request got before, whatever the state now.
                return .stored(.success(MutationResult(answer: answer, events: [], replayed: true)))
            }
            // An applied number answers before If-Match (its retry names the version it was sent
            // at); a gap is the step's refusal, after it.
            if let numbered = mutation.numbered, let mark = slot.state.appliedMark(of: numbered) {
                let answer = alreadyApplied(numbered, mark: mark, mutation, of: session, slot: slot)
                return .fromState(.success(MutationResult(answer: answer, events: [], replayed: false)))
            }
            try Self.check(mutation.precondition, of: slot.state)
            // A session that another process moved to a newer app version while this work waited.
            if slot.turn.appGeneration != appGeneration.load(ordering: .acquiring) {
                let served = currentApp
                // An app without experiments runs every session on its own version.
                if slot.state.appVersion != served.version || !served.app.experiments.isEmpty {
                    let target = served.running(memberships: slot.state.experiments).version
                    if slot.state.appVersion != target { try checkNotAhead(slot.state.appVersion, target: target, of: session.id) }
                }
            }
            let started = ContinuousClock.now
            let step = try slot.state.step(mutation.command, numbered: mutation.numbered, limits: configuration.limits, at: Int(now * 1000))
            // A no-op has no version and no event; its answer is still remembered for its key.
            let next = step?.next ?? slot.state
            let block = step.map { slot.log.withCheckpoints($0.block, from: slot.state, to: $0.next, isRestore: mutation.command.isRestore) }
            if let block { ListDiffMetrics.record(block, since: started) }
            // An answer stored for an Idempotency-Key is made now; any other once it is sent.
            let entry = mutation.idempotencyKey.map { IdempotencyCache.Entry(key: $0, answer: mutation.answer(next), storedAt: now) }
            let result =
                entry.map { MutationResult(answer: $0.answer, events: ArraySlice(block ?? []), replayed: false) }
                ?? MutationResult(state: next, answer: mutation.answer, events: ArraySlice(block ?? []))
            if block == nil, entry == nil { return .fromState(.success(result)) }
            var storedHead = slot.storedHead
            var write = next.write(
                from: slot.state, id: session.id, tokenHash: session.tokenHash, lastUsed: session.lastUsed, createdAt: session.createdAt,
                block: block ?? [], answer: entry,
                storedHead: &storedHead, keptAnswers: configuration.idempotencyCapacity, eventHistory: configuration.eventHistory,
                listHistory: configuration.limits.listHistory, asValues: writesValues)
            if let block, let first = block.first, !next.experiments.isEmpty,
                countsUnexposed.load(ordering: .relaxed) || next.experiments.values.contains(where: { $0.exposedAt != nil })
            {
                write.experimentFacts = ExperimentFacts.facts(ofBlock: block, from: slot.state, to: next, experiments: currentExperiments, at: first.at)
            }
            let written = WrittenChange(
                mutation: mutation, next: next, storedHead: storedHead, answer: entry, result: result, attempt: attempt,
                fromConfirmedState: slot.confirmedAt >= mutation.arrival,
                analytics: analytics.entries(
                    ofBlock: block ?? [], from: slot.state, to: next, session: session.id,
                    at: mutation.deviceTime.map { Self.analyticsTime(ofDeviceTime: $0, now: now, createdAt: session.createdAt) }))
            let inline = writes.commit(.session(write)) {
                let completion = completion()
                return { outcome in
                    self.endWrite(of: session) { slot in
                        self.settle(written, of: session, outcome: outcome, in: &slot, completion: { completion }).map { outcome in
                            [{ completion(outcome) }]
                        } ?? []
                    }
                }
            }
            guard let inline else {
                slot.turn.beginWrite()
                return .stored(nil)
            }
            return .stored(settle(written, of: session, outcome: inline, in: &slot, completion: completion))
        } catch {
            return .fromState(.failure(error))
        }
    }

    /// The answer to a device's change the session applied already: made from the current state
    /// (``Mutation/appliedAnswer``), marked `Minerva-Already-Applied: true`, with the version its
    /// block made (`Minerva-Applied-Version`) while the session knows it: always for the device's
    /// newest change, for an older one while the log in memory holds its block.
    private func alreadyApplied(
        _ change: DeviceChange, mark: DeviceMark, _ mutation: Mutation, of session: LiveSession, slot: LiveSession.Slot
    ) -> StoredAnswer {
        let answer = mutation.appliedAnswer.map { $0(session.id, slot.state) } ?? mutation.answer(slot.state)
        var headers = answer.headers + [("Minerva-Already-Applied", "true")]
        let version = change.seq == mark.seq ? mark.version : slot.log.events.last { $0.device == change }?.version
        if let version { headers.append(("Minerva-Applied-Version", String(version))) }
        return StoredAnswer(status: answer.status, headers: headers, body: answer.body)
    }

    /// The time analytics record for a change the device says it made at `deviceTime` (in
    /// milliseconds): that time, unless it is later than the server's clock or earlier than the
    /// session was made; then the server's.
    static func analyticsTime(ofDeviceTime deviceTime: Int, now: Double, createdAt: Double?) -> Int {
        let serverTime = Int(now * 1000)
        let sessionStart = createdAt.map { Int($0 * 1000) } ?? .min
        return deviceTime <= serverTime && deviceTime >= sessionStart ? deviceTime : serverTime
    }

    /// The answer remembered for `key`: in memory, or (memory forgot it) in the store.
    /// - Throws: `invalid` for a key used with another request, `unavailable` when the store cannot be
    ///   read, `conflict` when the remembered answer cannot be (a later release's record format).
    private func rememberedAnswer(
        for key: IdempotencyKey, of session: LiveSession, in slot: inout LiveSession.Slot, now: Double
    ) throws(SessionError) -> StoredAnswer? {
        if let answer = try slot.answers.answer(for: key, now: now) { return answer }
        let record: AnswerRecord?
        do {
            record = try store.loadAnswer(of: session.id, key: key.key)
        } catch {
            logger.error("could not read an idempotency key of session \(session.id) from storage: \(error)")
            throw .storeUnreadable
        }
        guard let record else { return nil }
        let entry: IdempotencyCache.Entry
        do throws(SnapshotError) {
            entry = try IdempotencyCache.Entry(record: record)
        } catch {
            // Applying the request again could apply it twice: refuse the key instead.
            logger.error("the answer remembered for an idempotency key of session \(session.id) cannot be read: \(error)")
            throw .conflict("the answer remembered for this Idempotency-Key cannot be read by this server (\(error)); send the request with a new key if it should apply")
        }
        guard now - entry.storedAt < configuration.idempotencyLifetime else { return nil }
        guard entry.key.fingerprint == key.fingerprint else { throw .reusedKey(key.key) }
        slot.answers.remember(entry, now: now)
        return entry.answer
    }

    /// The mutation is durable: its state becomes the session's, its events join the log and go
    /// to the followers, its answer is remembered. When the session already holds it (read from
    /// the store after the write committed, its events published then), only the answer is new.
    private func swap(_ written: WrittenChange, of session: LiveSession, slot: inout LiveSession.Slot, now: Double) {
        let next = written.next
        // Committed with its check against the stored session: what the session holds now was
        // the store's when the write committed, after it was handed over.
        slot.confirmedAt = max(slot.confirmedAt, written.handedOver)
        analytics.record(written.analytics)
        if let answer = written.answer { slot.answers.remember(answer, now: now) }
        guard next.lastEvent > slot.state.lastEvent else { return }
        liveNodes.add(next.tree.nodes.count - slot.state.tree.nodes.count, ordering: .relaxed)
        if next.appVersion != slot.state.appVersion { slot.turn.appGeneration = -1 }
        slot.state = next
        slot.storedHead = written.storedHead
        let block = written.result.events
        guard !block.isEmpty else { return }
        slot.log.append(Array(block), keep: eventsInMemory, budget: historyBudget.events)
        hub.publish(block, state: next, session: session.id)
    }

    /// A session's write has ended: under its lock, its turn is freed, `settle` gives the write's
    /// own outcome (or starts its retry), and the work that waited starts, in order, until one
    /// hands a write to the store; the answers are given after the lock.
    func endWrite(of session: LiveSession, settle: (inout LiveSession.Slot) -> DeferredAnswers) {
        let answers = session.slot.withLock { slot -> DeferredAnswers in
            slot.turn.endWrite()
            return settle(&slot) + runWaiting(session, in: &slot)
        }
        for answer in answers { answer() }
    }

    /// The store has answered a mutation's write: swap and publish when it is durable. When
    /// another process changed the session first (the version-checked write conflicted), the
    /// session reads itself again and the mutation runs again on what is stored now,
    /// ``conflictRetries`` times at most, the session's turn held meanwhile.
    /// - Returns: the outcome, or `nil` when the mutation runs again (its completion then gets it).
    private func settle(
        _ written: WrittenChange, of session: LiveSession, outcome: Result<WriteOutcome, StorageError>, in slot: inout LiveSession.Slot,
        completion: () -> MutationCompletion
    ) -> Result<MutationResult, SessionError>? {
        switch outcome {
        case .success(.committed) where slot.turn.isClosed:
            return .failure(.unauthorized)
        case .success(.committed):
            swap(written, of: session, slot: &slot, now: configuration.now())
            return .success(written.result)
        case .success(.conflict) where slot.turn.isClosed:
            // Deleted meanwhile (by another process, or expired): nothing to run again on.
            return .failure(.unauthorized)
        case .success(.conflict):
            SharedStoreMetrics.conflicted()
            let attempt = written.attempt
            guard attempt < Self.conflictRetries else {
                logger.error("session \(session.id) kept changing in storage under this process; gave up after \(attempt + 1) writes")
                return .failure(SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the session is changing too fast; retry"))
            }
            // Runs again after a random pause that grows with each conflict, so that a process
            // losing the race to a busy one gets its turn; the session keeps its turn meanwhile,
            // so that work waiting for it stays in order. The store is read before the lock. A
            // first write from a copy not confirmed since the change arrived lost no race (the
            // copy was older than the store): it runs again at once.
            slot.turn.beginWrite()
            let completion = completion()
            let pause = attempt == 0 && !written.fromConfirmedState ? 0 : Double.random(in: 0...(0.001 * Double(1 << min(attempt, 6))))
            DispatchQueue.global().asyncAfter(deadline: .now() + pause) {
                self.following.reload(session, core: self)
                self.endWrite(of: session) { slot in
                    self.start(written.mutation, of: session, in: &slot, completion: { completion }, attempt: attempt + 1).map { outcome in
                        [{ completion(outcome) }]
                    } ?? []
                }
            }
            return nil
        case .failure(let error):
            logger.error("could not store a change of session \(session.id): \(error)")
            return .failure(error.outcomeUnknown ? .outcomeUnknown("the change") : .notStored("the change"))
        }
    }

    /// How many times a mutation runs again after its write conflicted before it answers `503`.
    static let conflictRetries = 16

    /// Refuses work that waited for the session's turn.
    func fail(_ waiting: some Sequence<LiveSession.QueuedWork>, with error: SessionError) {
        for work in waiting {
            switch work {
            case .mutation(_, let completion): completion(.failure(error))
            case .deletion(_, let completion): completion(.failure(error))
            }
        }
    }

    /// Answers to give once the session's lock is released, so that making and sending them
    /// holds no lock.
    typealias DeferredAnswers = [@Sendable () -> Void]

    /// Starts the work that waited for the session's turn, until one of them hands a write to storage.
    /// - Returns: the answers of the work that ended at once, to give after the lock.
    func runWaiting(_ session: LiveSession, in slot: inout LiveSession.Slot) -> DeferredAnswers {
        var answers: DeferredAnswers = []
        while let work = slot.turn.next() {
            switch work {
            case .mutation(let mutation, let completion):
                if let outcome = start(mutation, of: session, in: &slot, completion: { completion }) { answers.append { completion(outcome) } }
            case .deletion(let precondition, let completion):
                if let outcome = startDeletion(of: session, precondition: precondition, in: &slot, completion: completion) {
                    answers.append { completion(outcome) }
                }
            }
        }
        return answers
    }
}

/// A mutation whose write was handed to the store: what it made, and what it records once stored.
/// A class, so that handing it to the write's completion and on copies one reference.
private final class WrittenChange: Sendable {
    let mutation: Mutation
    /// The state it made.
    let next: SessionState
    /// The session's head in the store once it is written.
    let storedHead: SessionHead
    /// The answer stored with it for its `Idempotency-Key`.
    let answer: IdempotencyCache.Entry?
    let result: MutationResult
    /// How many times its write conflicted with another process's already.
    let attempt: Int
    /// Whether its step started from a state known to be the store's after the change arrived.
    let fromConfirmedState: Bool
    /// Its flow analytics, made from the state its step started from (which the session may no
    /// longer hold when the write ends: another process's change read meanwhile).
    let analytics: [AnalyticsEntry]
    /// When it was made, just before its write was handed to the store.
    let handedOver = ContinuousClock.now

    init(
        mutation: Mutation, next: SessionState, storedHead: SessionHead, answer: IdempotencyCache.Entry?, result: MutationResult, attempt: Int,
        fromConfirmedState: Bool, analytics: [AnalyticsEntry]
    ) {
        self.mutation = mutation
        self.next = next
        self.storedHead = storedHead
        self.answer = answer
        self.result = result
        self.attempt = attempt
        self.fromConfirmedState = fromConfirmedState
        self.analytics = analytics
    }
}
