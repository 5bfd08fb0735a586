import Locking

/// Whether the store takes writes, as the last one found: a write refused (a full disk, a
/// read-only file) marks it refusing until a write or a probe (``SessionStorage/checkWritable()``)
/// is taken again, so that the health check says `503` while changes cannot be stored.
final class WriteHealth: Sendable {
    private let refusal = Locked<StorageError?>(nil)

    /// Notes how a write (or a group of them) ended: a conflict is an answer, not a refusal.
    func note<T>(_ outcome: Result<T, StorageError>) {
        switch outcome {
        case .success: refusal.withLock { if $0 != nil { $0 = nil } }
        case .failure(let error): refusal.withLock { $0 = error }
        }
    }

    /// Why the last write was refused, while no write has been taken since.
    var lastRefusal: StorageError? {
        refusal.withLock { $0 }
    }
}
