import Locking

#if canImport(Glibc)
import Glibc
#endif

/// Where one connection stands between its requests, behind its own lock, for the
/// ``ConnectionTable``, which shuts its socket down from another thread when the request takes too
/// long to arrive or when the connection is shed.
///
/// That is safe because libmicrohttpd reports a connection closed before it closes the socket,
/// and the report takes this lock: as long as the clock is not `closed`, its socket is still the
/// connection's.
final class ConnectionClock: Hashable, Sendable {
    private enum Phase {
        /// Open since this time, no byte seen yet (libmicrohttpd's idle timeout applies; to the
        /// shedding policy it is receiving its first request).
        case opened(since: Double)
        /// Waiting for a request since this time (libmicrohttpd's idle timeout applies).
        case idle(since: Double)
        /// Bytes of a request have been arriving since this time (the deadline applies).
        case receiving(since: Double)
        /// The whole request has arrived; it is being answered.
        case answering
        /// The whole request has arrived; its answer waits (a long poll) or streams, since this time.
        case waiting(since: Double, ServerContext.Waiting)
        /// A wait answered early: the connection is shut down once the answer is sent.
        case endingEarly
        /// The socket is closed or being closed: never touch it again.
        case closed
    }

    /// The client address group it came from.
    let group: ClientAddressGroup
    private let fd: Int32
    /// Milliseconds that data sent on a stream may stay unacknowledged before the kernel gives the
    /// connection up (`TCP_USER_TIMEOUT`): a client that vanished without a word (a phone that
    /// changed networks) is found after this, not after minutes of retransmissions.
    private let streamAcknowledgementTimeout: UInt32
    private let phase: Locked<Phase>

    /// Starts a clock for a connection that has just opened.
    /// - Parameters:
    ///   - fd: the connection's socket.
    ///   - group: the client's address group.
    ///   - now: the monotonic time, in seconds.
    ///   - streamAcknowledgementTimeout: milliseconds data sent on a stream may stay unacknowledged.
    init(fd: Int32, group: ClientAddressGroup, now: Double, streamAcknowledgementTimeout: UInt32) {
        self.fd = fd
        self.group = group
        self.streamAcknowledgementTimeout = streamAcknowledgementTimeout
        phase = Locked(.opened(since: now))
    }

    /// The whole request has arrived.
    func requestArrived() {
        phase.withLock { phase in
            if case .closed = phase { return }
            phase = .answering
        }
    }

    /// The request's answer waits (a long poll) or streams; a stream's socket gives up data left
    /// unacknowledged for ``streamAcknowledgementTimeout``.
    func waits(on waiting: ServerContext.Waiting) {
        phase.withLock { phase in
            switch phase {
            case .answering, .waiting:
                if case .stream = waiting {
                    var timeout = streamAcknowledgementTimeout
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &timeout, socklen_t(MemoryLayout<UInt32>.size))
                }
                phase = .waiting(since: ConnectionTable.now(), waiting)
            case .opened, .idle, .receiving, .endingEarly, .closed: return
            }
        }
    }

    /// The answer is sent; the connection waits for its next request, or is shut down when
    /// its wait was answered early.
    func requestCompleted() {
        phase.withLock { phase in
            switch phase {
            case .closed:
                return
            case .endingEarly:
                shutdown(fd, Int32(SHUT_RDWR))
                phase = .closed
            case .opened, .idle, .receiving, .answering, .waiting:
                phase = .idle(since: ConnectionTable.now())
            }
        }
    }

    /// Answers the connection's wait early (a long poll's fallback, the end of a stream), so that
    /// the connection closes once the answer is sent.
    /// - Returns: whether a wait was ended, and whether it was a stream.
    func endWaitEarly() -> (ended: Bool, stream: Bool) {
        let waiting = phase.withLock { phase -> ServerContext.Waiting? in
            guard case .waiting(_, let waiting) = phase else { return nil }
            phase = .endingEarly
            return waiting
        }
        // Outside the clock's lock: answering resumes the connection, whose thread may then
        // report the request completed.
        switch waiting {
        case .deferred(let deferred): return (deferred.answerEarly(), false)
        case .stream(let stream): return (stream.endEarly(), true)
        case nil: return (false, false)
        }
    }

    /// The connection closed: its socket is about to be closed, so it must not be touched again.
    func close() {
        phase.withLock { $0 = .closed }
    }

    /// What the connection is doing, for the shedding policy.
    var activity: ConnectionShares<ConnectionClock>.Activity {
        phase.withLock { phase in
            switch phase {
            case .opened(let since), .receiving(let since): .receiving(since: since)
            case .idle(let since): .idle(since: since)
            case .waiting(let since, .stream): .waiting(since: since)
            case .waiting(let since, .deferred(let deferred)): deferred.endsEarly ? .waiting(since: since) : .answering
            case .answering, .endingEarly, .closed: .answering
            }
        }
    }

    /// Shuts the socket down if the connection is still idle or receiving: a request that has
    /// arrived whole is never shed.
    /// - Returns: whether it was shut down.
    func shed() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .opened, .idle, .receiving:
                shutdown(fd, Int32(SHUT_RDWR))
                phase = .closed
                return true
            case .answering, .waiting, .endingEarly, .closed:
                return false
            }
        }
    }

    /// Starts the deadline when a request's bytes began to arrive; shuts the socket down when
    /// it has passed. Runs under the clock's lock, so the socket cannot be closed meanwhile.
    /// - Returns: whether it shut the socket down.
    func check(now: Double, deadline: Double) -> Bool {
        phase.withLock { phase in
            switch phase {
            case .opened(let since), .idle(let since):
                // The kernel tells how long ago data last came; jiffies are coarse, hence the slack.
                guard let quiet = secondsSinceDataReceived(), now - quiet > since + 0.02 else { return false }
                phase = .receiving(since: now - quiet)
                return false
            case .receiving(let since):
                guard now - since > deadline else { return false }
                shutdown(fd, Int32(SHUT_RDWR))
                phase = .closed
                return true
            case .answering, .waiting, .endingEarly, .closed:
                return false
            }
        }
    }

    /// The stream the connection answers with, and whether its client has gone (closed or reset
    /// the connection, or stopped acknowledging what was sent): libmicrohttpd does not watch a
    /// suspended connection, so only its socket tells. Looked at under the clock's lock, so the
    /// socket cannot be closed meanwhile.
    /// - Returns: `nil` unless the connection's answer streams.
    func stream() -> (stream: HTTPStream, clientGone: Bool)? {
        phase.withLock { phase in
            guard case .waiting(_, .stream(let stream)) = phase else { return nil }
            return (stream, clientHasGone())
        }
    }

    /// Whether the socket has reached its end (the client closed it: a client of a stream sends
    /// nothing more, so it closes only to leave) or an error (reset, or timed out), without
    /// waiting. Data waiting to be read (a pipelined request) is not an end.
    private func clientHasGone() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    private func secondsSinceDataReceived() -> Double? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return Double(info.tcpi_last_data_recv) / 1000
    }

    static func == (lhs: ConnectionClock, rhs: ConnectionClock) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
