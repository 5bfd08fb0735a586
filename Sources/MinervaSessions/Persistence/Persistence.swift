/// Where a server keeps its sessions, chosen once at start: the session core serves every mode
/// the same way, through a store, and the mode decides only how writes reach it and whether
/// other processes write it too.
public enum Persistence: Sendable {
    /// In this process's memory (a ``MemorySessionStorage`` of the core's own), gone with the
    /// process; every write commits inline, within the mutation's step, as values (no record encoded).
    case memory
    /// In a store of this process's own (SQLite): writes are committed in groups by one writer
    /// thread, and a mutation answers once its group is durable.
    case local(any SessionStorage & AnalyticsStorage)
    /// In a store several processes share (PostgreSQL): grouped writes as with a local store; a
    /// session is checked against the store before every read (a change is checked by its
    /// write), and followed through the others' commits.
    case shared(any SharedSessionStorage & AnalyticsStorage)

    /// The store and the analytics store of this mode.
    func stores(_ configuration: SessionConfiguration) -> (sessions: any SessionStorage, analytics: any AnalyticsStorage) {
        switch self {
        case .memory: (MemorySessionStorage(historyBudget: configuration.memoryHistoryBytes), AnalyticsMemoryStore())
        case .local(let store): (store, store)
        case .shared(let store): (store, store)
        }
    }
}
