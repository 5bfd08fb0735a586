import DequeModule

/// Whose turn it is to change one session, and what waits for it: the session's state machine.
///
/// A session stores one change at a time, so that every step starts from a state the store has
/// accepted. Work that arrives while a write is with the store (or paused before a retry) waits
/// in line, in arrival order; when the write ends, the turn goes to that work one by one, until
/// one of them hands a write to the store again. A closed session (deleted or expired) refuses
/// all work. The transitions say what the core does next; the core does it under the session's
/// lock, and gives the answers after it.
///
/// The state the session serves is not the turn's: it may be replaced by what the store holds
/// at any time, a write in flight or not (see ``SharedStoreFollower``), so that no read waits
/// for a write and none answers from an older copy.
struct SessionTurn: Sendable {
    /// Where the turn is.
    enum Phase: Sendable, Equatable {
        /// Nothing is with the store: work starts at once.
        case free
        /// A write is with the store, or paused before its retry: work waits.
        case writing
        /// The session is gone: work is refused.
        case closed
    }

    /// What the core does with work that arrives.
    enum Arrival: Sendable, Equatable {
        /// Start it now, on this thread, under the session's lock.
        case start
        /// Nothing now: it waits in line, and starts when the turn comes to it (``next()``).
        case wait
        /// Refuse it: the session is gone.
        case refuse
    }

    /// The turn's phase.
    private(set) var phase = Phase.free
    /// Work that arrived while the turn was held, in arrival order.
    private var waiting: Deque<LiveSession.QueuedWork> = []
    /// The ``SessionCore/appGeneration`` at which the session's state was last found to run the
    /// current app (-1: not since it was read); see ``SessionCore/moveToCurrentApp(_:)``.
    var appGeneration = -1

    /// Whether the session is gone.
    var isClosed: Bool { phase == .closed }

    /// Work arrives: it starts, waits (`work` is made only then), or is refused.
    mutating func arrive(_ work: @autoclosure () -> LiveSession.QueuedWork) -> Arrival {
        switch phase {
        case .free: return .start
        case .writing:
            waiting.append(work())
            return .wait
        case .closed: return .refuse
        }
    }

    /// The work that started handed a write to the store: the turn is held until it ends.
    mutating func beginWrite() {
        precondition(phase == .free, "a session hands one write at a time to the store (phase \(phase))")
        phase = .writing
    }

    /// The write ended (stored, refused, or conflicted — its retry then takes the turn again with
    /// ``beginWrite()``): the turn is free again, unless the session closed meanwhile.
    mutating func endWrite() {
        precondition(phase != .free, "a write ended that was not begun")
        if phase == .writing { phase = .free }
    }

    /// The next work whose turn it is: the oldest waiting, while the turn is free.
    mutating func next() -> LiveSession.QueuedWork? {
        phase == .free ? waiting.popFirst() : nil
    }

    /// The session is gone: from now on all work is refused.
    /// - Returns: the work that was waiting, for the core to refuse; empty when already closed.
    mutating func close() -> Deque<LiveSession.QueuedWork> {
        phase = .closed
        defer { waiting = [] }
        return waiting
    }
}
