/// How the core's writes reach the store: inline, within the call (the memory store), or queued
/// for a group commit on the store's writer thread.
enum CommitPath: Sendable {
    /// The store commits within ``commit(_:later:)``.
    case inline(any SessionStorage, WriteHealth)
    /// Writes join the next group the committer writes.
    case grouped(GroupCommitter)

    /// The path for a store of `persistence`, noting in `health` whether its writes are taken.
    init(_ persistence: Persistence, store: any SessionStorage, health: WriteHealth) {
        switch persistence {
        case .memory: self = .inline(store, health)
        case .local, .shared: self = .grouped(GroupCommitter(storage: store, health: health))
        }
    }

    /// Commits a write.
    /// - Parameter later: makes the completion of a queued write; not called for an inline one.
    /// - Returns: the outcome when the write was committed inline, else `nil`: the completion
    ///   `later` made then gets it once the write's group has committed.
    func commit(
        _ write: StorageWrite, later: () -> @Sendable (Result<WriteOutcome, StorageError>) -> Void
    ) -> Result<WriteOutcome, StorageError>? {
        switch self {
        case .inline(let store, let health):
            let outcome = Result { () throws(StorageError) -> WriteOutcome in
                guard let outcome = try store.commit([write]).first else { throw StorageError("the store answered no outcome for a write") }
                return outcome
            }
            health.note(outcome)
            return outcome
        case .grouped(let committer):
            committer.submit(write, completion: later())
            return nil
        }
    }
}
