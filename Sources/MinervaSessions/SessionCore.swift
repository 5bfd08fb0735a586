public import Logging
public import MinervaCoordinator
public import MinervaModel
import Synchronization
import Locking

/// The session core: every session's state, and the one place where it changes. It knows no
/// HTTP. A mutation is a pure step on a copy of the state; the core then carries out what the
/// step made in one order — store, swap, publish — so nothing is visible to anyone before
/// storage has accepted it, and a refusal uses up no version or event number.
public final class SessionCore: Sendable {
    /// The app as written, its version, and the app of each combination of its experiments'
    /// variants (a session records the version of the one it runs).
    private let current: Locked<ServedApp>
    /// Grows with every ``replaceApp(_:version:)``: a session whose slot recorded the current
    /// generation runs the current app, which the hot path learns without reading ``current``.
    let appGeneration = Atomic<Int>(0)
    /// Whether the served app has an experiment by `user`, which counts what a session does
    /// before it is exposed itself (see ``ExperimentFacts``): the hot path learns without reading
    /// ``current`` that a change of a session exposed to nothing counts nothing.
    let countsUnexposed = Atomic<Bool>(false)
    /// Every app description this process ran or read from the store, by version.
    let apps: AppCatalog
    /// Limits and the clock.
    public let configuration: SessionConfiguration
    /// The store: every session, its change log, list versions and remembered answers.
    let store: any SessionStorage
    /// How writes reach ``store``.
    let writes: CommitPath
    /// Whether ``store`` keeps the values a change writes rather than records (the memory store).
    let writesValues: Bool
    /// Whether ``store`` takes writes, as the last one found.
    let writeHealth = WriteHealth()
    /// Reads what a session's in-memory history forgot, and its earlier versions.
    let history: SessionHistory
    /// How sessions in memory stay in step with ``store``.
    let following: any SessionFollowing
    let registry = SessionRegistry()
    let hub = EventHub()
    let creations: CreationLedger
    let logger: Logger
    /// Sessions that exist (in the store).
    let liveCount: Atomic<Int>
    /// Nodes of the sessions in memory.
    let liveNodes = Atomic<Int>(0)
    /// Flow analytics of the changes this process commits.
    public let analytics: AnalyticsRecorder

    /// Creates the core.
    /// - Parameters:
    ///   - app: the validated app description.
    ///   - appVersion: its version.
    ///   - configuration: limits and the clock.
    ///   - persistence: where sessions are kept. Sessions are read from a store when first used,
    ///     not at start.
    ///   - logger: where storage faults are reported.
    /// - Throws: ``StorageError`` when the store cannot be read.
    public init(
        app: AppDescription, appVersion: String, configuration: SessionConfiguration, persistence: Persistence = .memory, logger: Logger
    ) throws(StorageError) {
        let served = ServedApp(app, version: appVersion)
        current = Locked(served)
        countsUnexposed.store(served.countsUnexposed, ordering: .relaxed)
        self.configuration = configuration
        self.logger = logger
        let stores = persistence.stores(configuration)
        store = stores.sessions
        apps = AppCatalog(served, store: stores.sessions, logger: logger)
        writes = CommitPath(persistence, store: stores.sessions, health: writeHealth)
        if case .memory = persistence { writesValues = true } else { writesValues = false }
        history = SessionHistory(store: stores.sessions, configuration: configuration, logger: logger)
        switch persistence {
        case .shared(let shared): following = SharedStoreFollower(store: shared)
        case .memory, .local: following = SoleWriter()
        }
        analytics = AnalyticsRecorder(storage: stores.analytics, clock: configuration.now, linger: configuration.analyticsLinger, logger: logger)
        creations = CreationLedger(lifetime: configuration.idempotencyLifetime)
        liveCount = Atomic(try store.sessionCount())
        ListDiffMetrics.prepare()
        following.start(self)
        try keep(served)
    }

    /// Keeps every app of `served` in the store before any session runs one, and announces
    /// them, the variants' last, as the newest (a shared store orders the versions its processes run).
    private func keep(_ served: ServedApp) throws(StorageError) {
        // Each kept before it is announced, so that whoever sees the version can read its app.
        try store.keepAppDescription(served.app.outsideExperiments.document(version: nil), version: served.version)
        try following.announce(served.version)
        // The variants after it: an app file adding an experiment, or declaring a winner, keeps
        // the version outside the experiments, and an instance still on the file before must
        // see the variants' versions as newer than it (and answer 409 rather than move a
        // session back).
        for (app, version) in served.variantApps {
            try store.keepAppDescription(app.document(version: nil), version: version)
            try following.announce(version)
        }
    }

    /// The app new sessions are assigned by, as written (with its experiments).
    public var app: AppDescription { current.withLock { $0.app } }

    /// The version of ``app``: that of the app a session in no experiment runs.
    public var appVersion: String { current.withLock { $0.version } }

    /// The app served now, its variants included.
    var currentApp: ServedApp { current.withLock { $0 } }
    /// The served app's experiments by key (``ServedApp/experiments``).
    var currentExperiments: [String: AppDescription.Experiment] { current.withLock { $0.experiments } }

    /// Runs `app` for new sessions from now on; a session made with an earlier version moves to
    /// it on its next use (see ``moveToCurrentApp(_:)``). The store keeps the description first
    /// and, when shared, is told that this process runs the newest version; when it cannot be,
    /// the app in use stays.
    /// - Throws: `unavailable` when the store cannot record the version.
    public func replaceApp(_ app: AppDescription, version: String) throws(SessionError) {
        let served = ServedApp(app, version: version)
        do {
            try keep(served)
        } catch {
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the store cannot record app version \(version): \(error)")
        }
        apps.add(served)
        current.withLock {
            $0 = served
            countsUnexposed.store(served.countsUnexposed, ordering: .relaxed)
            appGeneration.add(1, ordering: .releasing)
        }
    }

    /// How many sessions exist.
    public var sessionCount: Int { liveCount.load(ordering: .relaxed) }

    /// How many sessions in memory run each app version.
    public var sessionsByAppVersion: [String: Int] {
        var counts: [String: Int] = [:]
        for session in registry.all {
            session.slot.withLock { slot in
                if !slot.turn.isClosed { counts[slot.state.appVersion, default: 0] += 1 }
            }
        }
        return counts
    }

    /// How many nodes the sessions in memory hold.
    public var nodeCount: Int { liveNodes.load(ordering: .relaxed) }

    /// How many long polls and streams follow sessions.
    public var subscriberCount: Int { hub.count }

    /// How many events the in-memory log of a session keeps (the store keeps the rest).
    var eventsInMemory: Int {
        min(configuration.eventHistory, configuration.eventsInMemory)
    }

    /// The session with this id when `token` is its bearer token, its request counted against
    /// its budget. A session not in memory is read from storage.
    /// - Parameter checkingStore: whether a session in memory is checked against a store other
    ///   processes write before use (every read must be). A request that only changes the
    ///   session, through ``mutate(_:_:completion:)``, may skip it: its write is checked against
    ///   the stored session, and a change that ends without one asks the store then.
    /// - Throws: `unauthorized` for an unknown session or a wrong token (never told apart),
    ///   `rateLimited` when its budget is spent, `unavailable` when storage cannot be read.
    public func session(_ id: String, token: String, checkingStore: Bool = true) throws(SessionError) -> LiveSession {
        // `find` checked the token: against the session's hash in memory, or the store's.
        guard let session = try find(id, token: token, checkingStore: checkingStore) else { throw .unauthorized }
        return try opened(session)
    }

    /// A session found for a request, moved to the current app and its request counted.
    func opened(_ session: LiveSession) throws(SessionError) -> LiveSession {
        try moveToCurrentApp(session)
        try session.admit(now: configuration.now())
        return session
    }

    /// Reads the session's current state (what the store has accepted).
    public func read<T>(_ session: LiveSession, _ body: (SessionState) throws(SessionError) -> T) throws(SessionError) -> T {
        try session.slot.withLock { slot throws(SessionError) in
            guard !slot.turn.isClosed else { throw .unauthorized }
            return try body(slot.state)
        }
    }

    /// Starts following a session: `start` sees the current state (and, when `after` is given,
    /// the page of the log after it) and either answers at once (returning `nil`) or returns a
    /// subscriber that receives every later block of events. Nothing published can slip between
    /// the two. The page is read before the session's lock is taken (from the store, when the
    /// in-memory log does not reach back), and read again under it only if a change came meanwhile.
    public func observe(
        _ session: LiveSession, after: Int? = nil, _ start: (SessionState, Result<EventPage, SessionError>?) -> (any EventSubscriber)?
    ) {
        let page = { (slot: LiveSession.Slot, after: Int) in
            (slot.state.lastEvent, Result { () throws(SessionError) in try self.history.page(of: session.id, slot.state, slot.log, after: after) })
        }
        let prepared = after.map { page(session.slot.withLock { $0 }, $0) }
        var grant: String?
        let ended: (any EventSubscriber)? = session.slot.withLock { slot in
            let page = after.map { prepared?.0 == slot.state.lastEvent ? prepared!.1 : page(slot, $0).1 }
            guard let subscriber = start(slot.state, page) else { return nil }
            if slot.turn.isClosed { return subscriber }
            if hub.subscribe(subscriber, to: session.id) { following.followed(session.id) }
            grant = subscriber.grant
            return nil
        }
        ended?.sessionEnded()
        // A revocation that came between the request's check and the subscription ends it now.
        if grant != nil { endRevokedFollowers(of: session.id) }
    }

    /// Stops delivering a session's events to `subscriber` (a long poll that timed out).
    public func stopObserving(_ session: LiveSession, _ subscriber: any EventSubscriber) {
        hub.unsubscribe(subscriber, from: session.id)
    }

    /// Forgets the session's subscribers that no longer listen (``EventSubscriber/isActive``), at
    /// once rather than at its next event or the next expiry sweep: a stream whose client left.
    /// - Parameter session: the session's id.
    public func forgetInactiveObservers(of session: String) {
        hub.prune(session)
    }

    /// The bytes a session's in-memory history may take, as much again as its state: half for
    /// the newest events, half for its lists' older versions, and a quarter more for remembered
    /// answers. The store keeps the rest.
    var historyBudget: (events: Int, lists: Int, answers: Int) {
        let total = configuration.limits.maxSessionBytes
        return (total / 2, total / 2, total / 4)
    }



    /// A token hash no token matches (SHA-256 has no known preimage of all zeros).
    private static let matchesNoToken = [UInt8](repeating: 0, count: 32)

    /// The session in memory, or read from storage; `nil` for an unknown id or a wrong token,
    /// which is checked first, against the token's hash alone (in memory, or one small lookup in
    /// the store), so that a wrong token costs about the same whether the id exists or not.
    /// - Parameter token: the owner's token to check; `nil` when the caller found an extra token of the session.
    func find(_ id: String, token: String?, checkingStore: Bool) throws(SessionError) -> LiveSession? {
        if let session = registry.session(id) {
            if let token, !session.authorizes(token) {
                // The same lookup as for an id not in memory, so that the time tells nothing.
                _ = try? store.tokenHash(of: id)
                return nil
            }
            return checkingStore ? try following.validate(session, core: self) : session
        }
        guard id.utf8.count <= 64 else { return nil }
        let stored: StoredSession?
        let read = ContinuousClock.now
        do {
            // An unknown id's token is compared too (with a hash nothing matches): the same work.
            if let token {
                let tokenHash = try store.tokenHash(of: id)
                guard Token.matches(token, hash: tokenHash ?? Self.matchesNoToken), tokenHash != nil else { return nil }
            }
            stored = try store.loadSession(id, eventTail: eventsInMemory)
        } catch {
            logger.error("could not read session \(id) from storage: \(error)")
            throw .storeUnreadable
        }
        guard let stored else { return nil }
        let restored: (state: SessionState, storedHead: SessionHead, log: SessionLog, answers: IdempotencyCache, events: [SessionEvent])
        let app = self.app
        let own = try apps.app(ofVersion: stored.record.appVersion)
        do throws(SnapshotError) {
            restored = try restore(stored, app: own ?? app)
        } catch {
            // A newer version of this app may be what this process cannot read.
            try checkNotAhead(stored.record.appVersion, of: id)
            logger.warning("session \(id) is kept in the store but not served: \(error)")
            throw .appChanged(id, serving: app.name)
        }
        if let made = restored.state.tree.nodes[restored.state.tree.rootID]?.screen, made != app.name {
            logger.warning("session \(id) was made with app '\(made)'; this server serves '\(app.name)'")
            throw .appChanged(id, serving: app.name)
        }
        try checkNotAhead(stored.record.appVersion, target: currentApp.running(memberships: restored.state.experiments).version, of: id)
        let unknown = restored.state.tree.unknownScreens
        if !unknown.isEmpty {
            logger.warning("session \(id) shows screens the app no longer declares: \(unknown.joined(separator: ", "))")
        }
        let session = LiveSession(
            id: id, tokenHash: stored.record.tokenHash, state: restored.state, storedHead: restored.storedHead, log: restored.log,
            answers: restored.answers, configuration: configuration, lastUsed: stored.record.lastUsed, createdAt: stored.record.createdAt,
            confirmedAt: read)
        let inMemory = registry.insert(session)
        guard inMemory === session else {
            // Another request read it first, perhaps before a change this read saw: the one in
            // memory is checked against the store as any use checks it.
            return try following.validate(inMemory, core: self)
        }
        liveNodes.add(restored.state.tree.nodes.count, ordering: .relaxed)
        return inMemory
    }
}
