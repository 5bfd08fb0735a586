import DequeModule
import Dispatch
import Foundation
import Locking

/// Threads that serve the requests which read or write a shared store over the network, so
/// that the HTTP threads, each serving many connections, never wait for the database: a request
/// is queued here and its connection suspended until it is answered.
final class StoreWorkers: Sendable {
    private let jobs = Locked<Deque<@Sendable () -> Void>>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Starts `count` threads.
    init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in
                while true {
                    ready.wait()
                    guard let job = jobs.withLock({ $0.popFirst() }) else { continue }
                    job()
                }
            }
            thread.name = "minerva.store-\(index)"
            thread.start()
        }
    }

    /// Queues a job; the first free thread runs it.
    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}

/// A request served by ``StoreWorkers``: answered `503` when the store has not let it finish
/// within its deadline (a frozen database), unless it has gone on to wait for events (a long
/// poll or a stream), which may take as long as the client asked.
final class StoreDeadline: Sendable {
    private let released = Locked(false)

    /// The request now waits for events, not for the store.
    func release() {
        released.withLock { $0 = true }
    }

    /// Whether the request waits for events.
    var isReleased: Bool {
        released.withLock { $0 }
    }
}
