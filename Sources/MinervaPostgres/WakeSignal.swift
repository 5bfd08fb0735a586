import Glibc
import Synchronization

/// A file descriptor that a thread waiting in `poll` also watches, so that another thread can
/// wake it at once (a pipe's reading end): the listener is woken when the sessions it must hear change.
final class WakeSignal: Sendable {
    /// The descriptor to watch for reading; `-1` when the system gave none (the waiter then
    /// notices changes at its next periodic check).
    let descriptor: Int32
    /// The pipe's writing end.
    private let writer: Int32
    private let pending = Atomic<Bool>(false)

    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (descriptor, writer) = (-1, -1)
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writer) = (ends[0], ends[1])
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            close(writer)
        }
    }

    /// Wakes the waiting thread (or the next wait, when none waits now).
    func signal() {
        pending.store(true, ordering: .releasing)
        guard writer >= 0 else { return }
        var byte: UInt8 = 1
        // A full pipe is signalled already.
        _ = write(writer, &byte, 1)
    }

    /// Takes the signals given so far, so that the next wait blocks again.
    func drain() {
        guard descriptor >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }

    /// Whether it was signalled since the last call.
    func take() -> Bool {
        pending.exchange(false, ordering: .acquiring)
    }
}
