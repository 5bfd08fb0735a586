import Dispatch
import Locking

/// Group commit: one writer takes whatever writes are queued and commits them as one
/// transaction, then tells each its outcome. Mutations of many sessions share a transaction's
/// cost, and no worker thread waits for a commit.
final class GroupCommitter: Sendable {
    /// A write and whom to tell how it ended.
    private struct Item: Sendable {
        let write: StorageWrite
        let completion: @Sendable (Result<WriteOutcome, StorageError>) -> Void
    }

    private struct Queue: Sendable {
        var items: [Item] = []
        var draining = false
    }

    private let storage: any SessionStorage
    private let health: WriteHealth
    private let queue = Locked(Queue())
    private let writer = DispatchQueue(label: "minerva.storage-writer")
    /// The most writes one transaction takes.
    private let maximumBatch: Int

    init(storage: any SessionStorage, health: WriteHealth, maximumBatch: Int = 1024) {
        self.storage = storage
        self.health = health
        self.maximumBatch = maximumBatch
    }

    /// Queues a write; `completion` runs on the writer once its transaction has ended.
    func submit(_ write: StorageWrite, completion: @escaping @Sendable (Result<WriteOutcome, StorageError>) -> Void) {
        let startDraining = queue.withLock { queue in
            queue.items.append(Item(write: write, completion: completion))
            defer { queue.draining = true }
            return !queue.draining
        }
        if startDraining {
            writer.async { self.drain() }
        }
    }

    /// Commits batches until nothing is queued.
    private func drain() {
        while true {
            let batch = queue.withLock { queue -> [Item] in
                guard !queue.items.isEmpty else {
                    queue.draining = false
                    return []
                }
                let taken = Array(queue.items.prefix(maximumBatch))
                queue.items.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { return }
            do throws(StorageError) {
                let outcomes = try storage.commit(batch.map(\.write))
                guard outcomes.count == batch.count else {
                    throw StorageError("the store answered \(outcomes.count) outcomes for \(batch.count) writes")
                }
                health.note(Result<Void, StorageError>.success(()))
                for (item, outcome) in zip(batch, outcomes) { item.completion(.success(outcome)) }
            } catch {
                health.note(Result<Void, StorageError>.failure(error))
                for item in batch { item.completion(.failure(error)) }
            }
        }
    }
}
