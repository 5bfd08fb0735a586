import Dispatch
import Locking

/// Group commit: one writer takes whatever writes are queued and commits them as one
/// transaction, then hands each its outcome to threads of their own (the swap, the publishing to
/// followers and the answers run there), and goes on to the next group. Mutations of many
/// sessions share a transaction's cost, and no worker thread waits for a commit.
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
    /// Where outcomes are delivered, several groups of them at once.
    private let fanOut = DispatchQueue(label: "minerva.storage-fan-out", attributes: .concurrent)
    /// The most writes one transaction takes.
    private let maximumBatch: Int

    init(storage: any SessionStorage, health: WriteHealth, maximumBatch: Int = 1024) {
        self.storage = storage
        self.health = health
        self.maximumBatch = maximumBatch
    }

    /// Queues a write; `completion` runs once its transaction has ended (see ``deliver(_:)``).
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

    /// Runs a group's completions off the writer, in chunks that threads of the fan-out queue
    /// take at once. A session has one write in flight at a time, so its completions stay in order.
    /// A group of one write while nothing else waits is completed on the writer itself: there is
    /// nothing to spread, and a hop to another thread would only add to its wait.
    private func deliver(_ completions: [@Sendable () -> Void]) {
        if completions.count == 1, queue.withLock({ $0.items.isEmpty }) {
            completions[0]()
            return
        }
        let chunk = 64
        for start in stride(from: 0, to: completions.count, by: chunk) {
            let part = completions[start..<min(start + chunk, completions.count)]
            fanOut.async { for completion in part { completion() } }
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
                deliver(zip(batch, outcomes).map { item, outcome in { item.completion(.success(outcome)) } })
            } catch {
                health.note(Result<Void, StorageError>.failure(error))
                deliver(batch.map { item in { item.completion(.failure(error)) } })
            }
        }
    }
}
