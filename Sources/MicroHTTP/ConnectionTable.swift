import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#endif

/// Every open connection with its ``ConnectionClock``: it admits, sheds or refuses new
/// connections by ``ConnectionShares``, and cuts off a request that takes longer than the
/// receive deadline to arrive whole, counted from its first byte (a client that trickles a
/// request byte by byte keeps libmicrohttpd's idle timeout from firing, but not this one).
///
/// libmicrohttpd asks it about each new connection (its accept policy) and reports when
/// connections open and close and when a request has arrived; it shuts down the socket of a
/// connection it sheds or cuts off, from whichever thread decides so. A timer looks at each
/// connection that is between requests, sees from the kernel's TCP statistics when a new
/// request's bytes began to arrive, and cuts off one that has taken longer than the deadline. An
/// idle keep-alive connection is left to the idle timeout (unless it is shed); a request that
/// has arrived whole is never cut off nor shed, though its long poll or stream may be answered
/// early when the server is full.
///
/// The same timer keeps streams alive: it ends a stream whose client has gone, and sends a
/// stream's heartbeat when nothing was sent on it for the heartbeat interval.
final class ConnectionTable: Sendable {
    /// Seconds a request may take to arrive (nil: no limit).
    let receiveDeadline: Double?
    /// Seconds a stream may send nothing before its heartbeat is sent.
    let heartbeat: Double
    private let shares: Locked<ConnectionShares<ConnectionClock>>
    private let observer: (any HTTPConnectionObserver)?
    /// The sweeping timer while the server runs (a dispatch source must not be released unresumed).
    private let timer = Locked<TimerHandle?>(nil)

    /// Creates an empty table.
    /// - Parameters:
    ///   - limits: the connection limits and the shedding deadline.
    ///   - receiveDeadline: the longest time a request may take to arrive, from its first byte.
    ///   - heartbeat: the longest time a stream may send nothing.
    ///   - observer: hears what was shed or refused.
    init(
        limits: ConnectionShares<ConnectionClock>.Limits, receiveDeadline: Double?, heartbeat: Double,
        observer: (any HTTPConnectionObserver)?
    ) {
        shares = Locked(ConnectionShares(limits: limits))
        self.receiveDeadline = receiveDeadline
        self.heartbeat = heartbeat
        self.observer = observer
    }

    /// Starts looking at the connections, a few times per deadline and per heartbeat interval, and
    /// at least once a second.
    func start() {
        let interval = min(1, max(0.05, min(receiveDeadline ?? 4, heartbeat) / 4))
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "microhttp.connections"))
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

    /// Whether to let a new connection from `group` in: when the server is full, another
    /// connection may be shed for it first.
    func admits(_ group: ClientAddressGroup) -> Bool {
        let now = Self.now()
        let decision = shares.withLock { shares -> ConnectionShares<ConnectionClock>.Decision in
            let decision = Self.decide(group, now: now, in: &shares)
            // the place is held from now on: another worker may be deciding about its newcomer
            if case .refuse = decision {} else { shares.promise(to: group, now: now) }
            return decision
        }
        switch decision {
        case .admit, .admitAboveLimit:
            return true
        case .shed(let victim, let reason):
            observer?.shed(reason, from: victim.group)
            return true
        case .refuse(let reason, let wait):
            observer?.refused(reason, from: group)
            if let wait { endEarly(wait) }
            return false
        }
    }

    /// The decision about a newcomer from `group`. A connection chosen to be shed may have moved
    /// on since it was looked at (its request arrived, and then it is not shed): choose again, a
    /// few times at most.
    private static func decide(
        _ group: ClientAddressGroup, now: Double, in shares: inout ConnectionShares<ConnectionClock>
    ) -> ConnectionShares<ConnectionClock>.Decision {
        for _ in 0..<4 {
            let decision = shares.admission(of: group, now: now) { $0.activity }
            guard case .shed(let victim, _) = decision else { return decision }
            if victim.shed() {
                shares.remove(victim)
                return decision
            }
        }
        return .refuse(.full, endingEarly: nil)
    }

    /// A connection opened: its clock starts.
    /// - Returns: the clock, to keep behind the connection's socket context.
    func opened(fd: Int32, group: ClientAddressGroup) -> ConnectionClock {
        let clock = ConnectionClock(fd: fd, group: group, now: Self.now(), streamAcknowledgementTimeout: streamAcknowledgementTimeout)
        shares.withLock { $0.insert(clock, from: group) }
        return clock
    }

    /// A connection closed: its socket is about to be closed, so the clock must not touch it.
    func closed(_ clock: ConnectionClock) {
        clock.close()
        shares.withLock { $0.remove(clock) }
    }

    private func sweep() {
        let now = Self.now()
        let connections = shares.withLock { Array($0.connections) }
        if let receiveDeadline {
            for clock in connections where clock.check(now: now, deadline: receiveDeadline) {
                observer?.shed(.requestTimeout, from: clock.group)
            }
        }
        // Outside the clock's lock: ending or feeding a stream resumes its connection.
        for clock in connections {
            guard let (stream, clientGone) = clock.stream() else { continue }
            if clientGone {
                stream.abandon()
            } else {
                stream.keepAlive(now: now, interval: heartbeat)
            }
        }
        // Connections let in above the limit: shed as many as can be now, else end a wait early.
        let (shed, wait) = shares.withLock { shares in
            var shed: [(ConnectionClock, HTTPShedReason)] = []
            // one that has moved on since it was looked at is not shed, and not chosen again
            for _ in 0..<ConnectionShares<ConnectionClock>.overdraft {
                let (victim, wait) = shares.excess(now: now, activity: { $0.activity })
                guard let (connection, reason) = victim else { return (shed, shed.isEmpty ? wait : nil) }
                if connection.shed() {
                    shares.remove(connection)
                    shed.append((connection, reason))
                }
            }
            return (shed, nil)
        }
        for (victim, reason) in shed { observer?.shed(reason, from: victim.group) }
        if let wait { endEarly(wait) }
    }

    /// Answers a connection's long poll early, or ends its stream, so that it closes.
    private func endEarly(_ connection: ConnectionClock) {
        let (ended, stream) = connection.endWaitEarly()
        if ended { observer?.endedEarly(stream: stream, from: connection.group) }
    }

    /// Milliseconds data sent on a stream may stay unacknowledged: two heartbeat intervals, and at
    /// least 10 s (a mobile network may stall that long and recover).
    private var streamAcknowledgementTimeout: UInt32 {
        UInt32(clamping: Int(max(10, 2 * heartbeat) * 1000))
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
