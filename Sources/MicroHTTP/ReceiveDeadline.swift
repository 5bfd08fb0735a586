import CMicroHTTPD
import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// A deadline for receiving each request whole (request line, header fields and body),
/// counted from its first byte: a client that trickles a request byte by byte keeps
/// libmicrohttpd's idle timeout from firing, but not this one.
///
/// libmicrohttpd reports when connections open and close and when a request has arrived; a
/// timer looks at each connection that is between requests, sees from the kernel's TCP
/// statistics when a new request's bytes began to arrive, and shuts down the socket of one
/// that has taken longer than the deadline. An idle keep-alive connection is left to the idle
/// timeout; a request that has arrived whole (a long poll, a stream) is never cut off.
final class ReceiveDeadline: Sendable {
    /// Seconds a request may take to arrive.
    let seconds: Double
    private let connections = Locked<[ObjectIdentifier: ConnectionClock]>([:])
    /// The sweeping timer while the server runs (a dispatch source must not be released unresumed).
    private let timer = Locked<TimerHandle?>(nil)

    /// Creates a stopped deadline.
    /// - Parameter seconds: the longest time a request may take to arrive, from its first byte.
    init(seconds: Double) {
        self.seconds = seconds
    }

    /// Starts looking at the connections, a few times per deadline and at least once a second.
    func start() {
        let interval = min(1, max(0.05, seconds / 4))
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "microhttp.receive-deadline"))
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        timer.withLock { $0 = TimerHandle(source: source) }
    }

    /// Stops looking; connections still open are left to libmicrohttpd.
    func stop() {
        timer.withLock { timer in
            timer?.source.cancel()
            timer = nil
        }
    }

    /// A connection opened: its clock starts idle.
    /// - Returns: the clock, to keep behind the connection's socket context.
    func opened(fd: Int32) -> ConnectionClock {
        let clock = ConnectionClock(fd: fd, now: Self.now())
        connections.withLock { $0[ObjectIdentifier(clock)] = clock }
        return clock
    }

    /// A connection closed: its socket is about to be closed, so the clock must not touch it.
    func closed(_ clock: ConnectionClock) {
        clock.close()
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(clock)) }
    }

    private func sweep() {
        let now = Self.now()
        for clock in connections.withLock({ Array($0.values) }) {
            clock.check(now: now, deadline: seconds)
        }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The timer, which libdispatch makes safe to use from any thread.
private struct TimerHandle: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
