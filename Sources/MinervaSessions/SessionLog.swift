import DequeModule

/// The newest events of a session's change log, as the session keeps them in memory: the whole
/// kept log without a store, or its tail when a store holds the rest. It lives beside the
/// session's state, not in it, so that a mutation's step never copies it.
struct SessionLog: Sendable {
    /// The events, oldest first.
    private(set) var events: Deque<SessionEvent> = []
    /// What they take (``SessionEvent/approximateByteCount``), in bytes.
    private(set) var bytes = 0
    /// The bytes of the events appended since the newest one that carries a checkpoint
    /// (``Int/max`` halved while none was seen), which decides when the next one is due.
    private(set) var sinceCheckpoint = Int.max / 2
    /// The `seq`s of the kept events that carry a checkpoint, oldest first (a few: they are far apart).
    private var checkpoints: Deque<Int> = []

    /// A log of events read back from storage, oldest first.
    init(_ events: some Sequence<SessionEvent> = []) {
        self.events = Deque(events)
        bytes = self.events.reduce(0) { $0 + $1.approximateByteCount }
        count(self.events)
    }

    /// Appends a mutation's block, then drops the oldest events beyond `keep` or beyond the
    /// byte budget (never the block itself).
    /// - Parameter retainingCheckpoint: whether the newest event that carries a checkpoint before
    ///   the kept ones stays, with those after it (the whole log of a session without a store,
    ///   whose earlier versions are rebuilt from it).
    mutating func append(_ block: some Collection<SessionEvent>, keep: Int, budget: Int, retainingCheckpoint: Bool = false) {
        events.append(contentsOf: block)
        bytes += block.reduce(0) { $0 + $1.approximateByteCount }
        count(block)
        trim(keep: keep, atLeast: block.count, budget: budget, retainingCheckpoint: retainingCheckpoint)
    }

    /// Follows ``sinceCheckpoint`` over appended events.
    private mutating func count(_ appended: some Sequence<SessionEvent>) {
        for event in appended {
            if event.checkpoint == nil {
                sinceCheckpoint += event.approximateByteCount
            } else {
                sinceCheckpoint = 0
                checkpoints.append(event.seq)
            }
        }
    }

    /// Drops the oldest events while more than `keep` or more than `budget` bytes are kept,
    /// keeping at least `atLeast` (and, see ``append(_:keep:budget:retainingCheckpoint:)``, the
    /// newest checkpoint before them). Bytes are counted only where a budget applies.
    mutating func trim(keep: Int, atLeast: Int, budget: Int, retainingCheckpoint: Bool = false) {
        var dropped = max(0, min(events.count - keep, events.count - atLeast))
        if budget < .max {
            var remaining = bytes - events.prefix(dropped).reduce(0) { $0 + $1.approximateByteCount }
            while events.count - dropped > atLeast, remaining > budget {
                remaining -= events[dropped].approximateByteCount
                dropped += 1
            }
        }
        guard dropped > 0 else { return }
        if retainingCheckpoint, let checkpoint = newestCheckpoint(before: dropped) { dropped = checkpoint }
        for _ in 0..<dropped { bytes -= events.removeFirst().approximateByteCount }
        while let first = checkpoints.first, first < events.first?.seq ?? .max { checkpoints.removeFirst() }
    }

    /// The index of the newest event before `index` that carries a checkpoint.
    private func newestCheckpoint(before index: Int) -> Int? {
        guard let base = events.first?.seq else { return nil }
        return checkpoints.last { $0 - base < index }.map { $0 - base }
    }
}
