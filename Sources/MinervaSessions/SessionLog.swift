import DequeModule
import MinervaModel

/// The newest events of a session's change log, as the session keeps them in memory: its tail,
/// while the store holds the whole kept log. It lives beside the
/// session's state, not in it, so that a mutation's step never copies it.
struct SessionLog: Sendable {
    /// The events, oldest first.
    private(set) var events: Deque<SessionEvent> = []
    /// What they take (``SessionEvent/approximateByteCount``), in bytes.
    private(set) var bytes = 0
    /// The bytes of the events appended since the newest one that carries a checkpoint
    /// (``Int/max`` halved while none was seen), which decides when the next one is due.
    private(set) var sinceCheckpoint = Int.max / 2

    /// A log of events read back from storage, oldest first.
    init(_ events: some Sequence<SessionEvent> = []) {
        self.events = Deque(events)
        bytes = self.events.reduce(0) { $0 + $1.approximateByteCount }
        count(self.events)
    }

    /// Appends a mutation's block, then drops the oldest events beyond `keep` or beyond the
    /// byte budget (never the block itself).
    mutating func append(_ block: some Collection<SessionEvent>, keep: Int, budget: Int) {
        events.append(contentsOf: block)
        bytes += block.reduce(0) { $0 + $1.approximateByteCount }
        count(block)
        trim(keep: keep, atLeast: block.count, budget: budget)
    }

    /// Follows ``sinceCheckpoint`` over appended events.
    private mutating func count(_ appended: some Sequence<SessionEvent>) {
        for event in appended {
            if event.checkpoint == nil {
                sinceCheckpoint += event.approximateByteCount
            } else {
                sinceCheckpoint = 0
            }
        }
    }

    /// Drops the oldest events while more than `keep` or more than `budget` bytes are kept,
    /// keeping at least `atLeast`. Bytes are counted only where a budget applies.
    mutating func trim(keep: Int, atLeast: Int, budget: Int) {
        var dropped = max(0, min(events.count - keep, events.count - atLeast))
        if budget < .max {
            var remaining = bytes - events.prefix(dropped).reduce(0) { $0 + $1.approximateByteCount }
            while events.count - dropped > atLeast, remaining > budget {
                remaining -= events[dropped].approximateByteCount
                dropped += 1
            }
        }
        guard dropped > 0 else { return }
        for _ in 0..<dropped { bytes -= events.removeFirst().approximateByteCount }
    }
}
