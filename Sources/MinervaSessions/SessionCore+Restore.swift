import MinervaCoordinator
import MinervaModel

extension SessionCore {
    /// An empty answer cache, bounded as the configuration says.
    func newAnswers() -> IdempotencyCache {
        IdempotencyCache(capacity: configuration.idempotencyCapacity, lifetime: configuration.idempotencyLifetime, budget: historyBudget.answers)
    }

    /// What a stored session holds for the core: its state, the newest events of its log and
    /// its remembered answers, each kept within its share of the session's history budget; and
    /// every event read (the log keeps only its newest).
    /// - Parameter app: the app to read the tree with: the one of the version the session records
    ///   (see ``AppCatalog/app(ofVersion:)``).
    /// - Throws: ``SnapshotError`` when what is stored is not a session of this app.
    func restore(
        _ stored: StoredSession, app: AppDescription
    ) throws(SnapshotError) -> (state: SessionState, storedHead: SessionHead, log: SessionLog, answers: IdempotencyCache, events: [SessionEvent]) {
        var events: [SessionEvent] = []
        for record in stored.events { events.append(try SessionEvent(record: record)) }
        let (state, storedHead) = try SessionState.read(stored, events: events, app: app, limits: configuration.limits)
        var log = SessionLog(events)
        log.trim(keep: eventsInMemory, atLeast: 0, budget: historyBudget.events)
        var answers = newAnswers()
        let now = configuration.now()
        for record in stored.answers { answers.remember(try IdempotencyCache.Entry(record: record), now: now) }
        return (state, storedHead, log, answers, events)
    }
}
