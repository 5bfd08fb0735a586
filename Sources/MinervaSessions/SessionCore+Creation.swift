public import MinervaCoordinator
public import MinervaModel

/// A session just made, for the API to answer with.
public struct CreatedSession: Sendable {
    /// The public id (`s_…`).
    public let id: String
    /// The bearer token: in this answer only (stored sealed when the creation has an Idempotency-Key).
    public let token: String
    /// Its first state.
    public let state: SessionState
}

/// Receives a creation's answer once the session is durable (or refused).
public typealias CreationCompletion = @Sendable (Result<StoredAnswer, SessionError>) -> Void

extension SessionCore {
    /// Makes a session in the launch flow for its flags, on that flow's roots, or built by a deep
    /// link (applied there, or kept pending for a later flow); version 1, no events.
    /// With an `Idempotency-Key`, the session and the key's answer are stored in one
    /// transaction, and a retry answers the same session.
    /// - Parameters:
    ///   - layout: `stack` or `split` (a single-root app).
    ///   - deepLink: a link to build the first state with.
    ///   - flags: the session's first flags (a returning user's `signedIn`).
    ///   - user: the id of the person the session is for, which experiments by `user` assign
    ///     (one variant on every device).
    ///   - variants: variants to run instead of drawing them, by experiment (QA, support): the
    ///     session is not counted in those experiments.
    ///   - key: the request's `Idempotency-Key`, if any.
    ///   - answer: builds the answer from the new session.
    ///   - completion: called with the outcome when it is not known at once.
    /// - Returns: the outcome when it is known at once; `completion` is then not called.
    public func create(
        layout: Layout, deepLink: String?, flags: [String] = [], sizeClass: SizeClass = .regular, user: String? = nil,
        variants: [String: String] = [:], key: IdempotencyKey?,
        answer: @escaping @Sendable (CreatedSession) -> StoredAnswer,
        completion: @escaping CreationCompletion
    ) -> Result<StoredAnswer, SessionError>? {
        let now = configuration.now()
        var began = false
        do throws(SessionError) {
            if let key {
                switch try creations.turn(for: key, now: now, waiting: completion) {
                case .answered(let stored): return .success(stored.replayed())
                case .wait: return nil
                case .create: began = true
                }
                if let stored = try storedCreation(key) {
                    let replay = stored.answer.replayed()
                    for waiting in creations.finish(key, entry: stored, now: now) { waiting(.success(replay)) }
                    return .success(replay)
                }
            }
            return try make(
                layout: layout, deepLink: deepLink, flags: flags, sizeClass: sizeClass, user: user, variants: variants, key: key, now: now,
                answer: answer, completion: completion)
        } catch {
            if let key, began {
                for waiting in creations.finish(key, entry: nil, now: now) { waiting(.failure(error)) }
            }
            return .failure(error)
        }
    }

    /// Refuses variants to force that the app does not have: an experiment it does not declare,
    /// one with a declared winner (everyone runs that), a variant the experiment does not have, or
    /// two experiments whose namespace shares exclude each other (no app was checked with both).
    private static func check(forced: [String: String], in app: AppDescription) throws(SessionError) {
        let keys = forced.keys.sorted()
        for (index, key) in keys.enumerated() {
            guard let namespace = app.experiment(key)?.namespace else { continue }
            for other in keys[(index + 1)...] {
                if let otherNamespace = app.experiment(other)?.namespace, !namespace.overlaps(otherNamespace) {
                    throw .invalid("experiments '\(key)' and '\(other)' take shares of namespace '\(namespace.name)' that exclude each other: force one of them")
                }
            }
        }
        for (key, variant) in forced.sorted(by: { $0.key < $1.key }) {
            guard let experiment = app.experiment(key) else {
                let keys = app.experiments.map { "'\($0.key)'" }
                throw .invalid("'variants' names experiment '\(key)', which the app does not declare; it declares " + (keys.isEmpty ? "none" : keys.joined(separator: ", ")))
            }
            if let winner = experiment.winner {
                throw .invalid("experiment '\(key)' is concluded: every session runs its winner '\(winner)'")
            }
            guard experiment.variant(named: variant) != nil else {
                throw .invalid("experiment '\(key)' has no variant '\(variant)'; it has \(experiment.variants.map { "'\($0.name)'" }.joined(separator: ", "))")
            }
        }
    }

    /// A creation answer remembered in storage (by this process before a restart, or by another one).
    private func storedCreation(_ key: IdempotencyKey) throws(SessionError) -> IdempotencyCache.Entry? {
        let record: AnswerRecord?
        do {
            record = try store.loadCreation(CreationSealing.storedKey(key.key)).map { try CreationSealing.open($0, key: key.key) }
        } catch {
            logger.error("could not read an idempotency key from storage: \(error)")
            throw .storeUnreadable
        }
        guard let record, record.storedAt >= configuration.now() - configuration.idempotencyLifetime else { return nil }
        let entry: IdempotencyCache.Entry
        do throws(SnapshotError) {
            entry = try IdempotencyCache.Entry(record: record)
        } catch {
            logger.error("stored idempotency key \(key.key) cannot be read: \(error)")
            return nil
        }
        guard entry.key.fingerprint == key.fingerprint else { throw .reusedKey(key.key) }
        return entry
    }

    private func make(
        layout: Layout, deepLink: String?, flags: [String], sizeClass: SizeClass, user: String?, variants: [String: String], key: IdempotencyKey?,
        now: Double,
        answer: @Sendable (CreatedSession) -> StoredAnswer,
        completion: @escaping CreationCompletion
    ) throws(SessionError) -> Result<StoredAnswer, SessionError>? {
        let id = "s_" + Token.random(bytes: 16)
        let served = currentApp
        try Self.check(forced: variants, in: served.app)
        let (app, appVersion) =
            served.app.experiments.isEmpty
            ? (served.app, served.version)
            : served.running(ExperimentDraw.choices(in: served.app, session: id, user: user, at: Int(now * 1000), forced: variants))
        if let deepLink, app.route(for: deepLink) == nil {
            throw .notFound(app.unmatchedLinkMessage(deepLink))
        }
        try SessionError.catching { () throws(NavigationError) in try CoordinatorTree.check(layout: layout, for: app) }
        if flags.contains(where: \.isEmpty) { throw .invalid("flag names must not be empty") }
        var tree = CoordinatorTree(app: app, layout: layout, flags: Set(flags))
        tree.setSizeClass(sizeClass)
        if let deepLink {
            try SessionError.catching { () throws(NavigationError) in _ = try tree.deepLink(deepLink) }
            guard tree.nodes.count <= configuration.limits.maxNodes else {
                throw .conflict("the deep link would make \(tree.nodes.count) nodes, over the limit of \(configuration.limits.maxNodes)")
            }
        }
        guard liveCount.add(1, ordering: .relaxed).newValue <= configuration.maxSessions else {
            liveCount.subtract(1, ordering: .relaxed)
            throw SessionError(
                .unavailable(retryAfter: 60, outcomeUnknown: false),
                "the server holds its limit of \(configuration.maxSessions) sessions; delete unused sessions or try later")
        }
        let token = Token.random(bytes: 32)
        let state = SessionState(tree: tree, appVersion: appVersion, assignedAt: Int(now * 1000))
        let created = CreatedSession(id: id, token: token, state: state)
        let session = LiveSession(
            id: created.id, tokenHash: Token.hash(token), state: state, storedHead: SessionHead(version: 1, lastEvent: 0), log: SessionLog(),
            answers: newAnswers(), configuration: configuration, lastUsed: now, createdAt: now)
        let response = answer(created)
        let entry = key.map { IdempotencyCache.Entry(key: $0, answer: response, storedAt: now) }
        var write = state.creationWrite(id: session.id, tokenHash: session.tokenHash, now: now, asValues: writesValues)
        write.creationKeysExpireBefore = now - configuration.idempotencyLifetime
        (write.experimentUnits, write.experimentFacts) = ExperimentFacts.creation(
            of: state, session: id, user: user, experiments: served.experiments, forced: Set(variants.keys), at: Int(now * 1000))
        if let entry {
            do {
                write.creation = try CreationSealing.seal(entry.record)
            } catch {
                logger.error("could not seal the answer of Idempotency-Key \(key?.key ?? ""): \(error); a retry will make a new session")
            }
        }
        let settle = { @Sendable (outcome: Result<WriteOutcome, StorageError>) -> Result<StoredAnswer, SessionError> in
            let result: Result<StoredAnswer, SessionError>
            var remembered = entry
            switch outcome {
            case .success(.committed):
                _ = self.registry.insert(session)
                self.liveNodes.add(state.tree.nodes.count, ordering: .relaxed)
                self.analytics.recordCreation(of: state.tree, version: state.version, session: session.id, at: now)
                result = .success(response)
            case .success(.conflict):
                // Another process stored a session for the same Idempotency-Key first: its answer
                // is this one's, and the one remembered for the key (this session was never stored).
                self.liveCount.subtract(1, ordering: .relaxed)
                remembered = nil
                result = Result { () throws(SessionError) in
                    guard let key, let stored = try self.storedCreation(key) else { throw .notStored("the new session") }
                    remembered = stored
                    return stored.answer.replayed()
                }
            case .failure(let error):
                self.logger.error("could not store a new session: \(error)")
                self.liveCount.subtract(1, ordering: .relaxed)
                result = .failure(error.outcomeUnknown ? .outcomeUnknown("the new session") : .notStored("the new session"))
            }
            self.finishCreation(key, entry: remembered, now: now, outcome: result)
            return result
        }
        let inline = writes.commit(.session(write)) {
            { outcome in completion(settle(outcome)) }
        }
        return inline.map(settle)
    }

    /// Remembers a key's answer (when the creation succeeded) and answers the retries that waited
    /// (with the answer marked as a replay).
    private func finishCreation(_ key: IdempotencyKey?, entry: IdempotencyCache.Entry?, now: Double, outcome: Result<StoredAnswer, SessionError>) {
        guard let key else { return }
        let succeeded = (try? outcome.get()) != nil
        let replay = outcome.map { $0.replayed() }
        for waiting in creations.finish(key, entry: succeeded ? entry : nil, now: now) { waiting(replay) }
    }
}
