import Locking

#if canImport(Glibc)
import Glibc
#endif

/// Where one connection stands between its requests, behind its own lock, for the
/// ``ReceiveDeadline``'s timer, which shuts its socket down from another thread.
///
/// That is safe because libmicrohttpd reports a connection closed before it closes the socket,
/// and the report takes this lock: as long as the clock is not `closed`, its socket is still the
/// connection's.
final class ConnectionClock: Sendable {
    private enum Phase {
        /// Waiting for a request since this time (libmicrohttpd's idle timeout applies).
        case idle(since: Double)
        /// Bytes of a request have been arriving since this time (the deadline applies).
        case receiving(since: Double)
        /// The whole request has arrived; it is being answered.
        case answering
        /// The socket is closed or being closed: never touch it again.
        case closed
    }

    private let fd: Int32
    private let phase: Locked<Phase>

    /// Starts a clock for a connection that has just opened.
    /// - Parameters:
    ///   - fd: the connection's socket.
    ///   - now: the monotonic time, in seconds.
    init(fd: Int32, now: Double) {
        self.fd = fd
        phase = Locked(.idle(since: now))
    }

    /// The whole request has arrived.
    func requestArrived() {
        phase.withLock { phase in
            if case .closed = phase { return }
            phase = .answering
        }
    }

    /// The answer is sent; the connection waits for its next request.
    func requestCompleted() {
        phase.withLock { phase in
            if case .closed = phase { return }
            phase = .idle(since: ReceiveDeadline.now())
        }
    }

    /// The connection closed: its socket is about to be closed, so it must not be touched again.
    func close() {
        phase.withLock { $0 = .closed }
    }

    /// Starts the deadline when a request's bytes began to arrive; shuts the socket down when
    /// it has passed. Runs under the clock's lock, so the socket cannot be closed meanwhile.
    func check(now: Double, deadline: Double) {
        phase.withLock { phase in
            switch phase {
            case .idle(let since):
                // The kernel tells how long ago data last came; jiffies are coarse, hence the slack.
                guard let quiet = secondsSinceDataReceived(), now - quiet > since + 0.02 else { return }
                phase = .receiving(since: now - quiet)
            case .receiving(let since):
                guard now - since > deadline else { return }
                shutdown(fd, Int32(SHUT_RDWR))
                phase = .closed
            case .answering, .closed:
                return
            }
        }
    }

    private func secondsSinceDataReceived() -> Double? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return Double(info.tcpi_last_data_recv) / 1000
    }
}
