import MinervaCoordinator
import MinervaModel

extension SessionLog {
    /// A mutation's block with the checkpoints it carries: version 1 on the first mutation's first
    /// event; the state it made on its final event after a restore (whose block is not replayed),
    /// or once the events since the last checkpoint take as many bytes as the session and at
    /// least ``checkpointSpacing`` (so that checkpoints take at most about as much memory as the
    /// events, and a version is rebuilt by replaying about that much).
    /// - Parameters:
    ///   - block: the events ``SessionState/recordBlock(_:from:at:listHistoryBudget:numbered:)`` made.
    ///   - old: the state the mutation started from.
    ///   - next: the state it made.
    ///   - isRestore: whether the mutation is a restore.
    /// This log is the session's in-memory log before the block.
    func withCheckpoints(_ block: [SessionEvent], from old: SessionState, to next: SessionState, isRestore: Bool) -> [SessionEvent] {
        var block = block
        if old.version == 1, !(isRestore && block.count == 1) {
            block[0] = block[0].carrying(Checkpoint.bytes(of: old))
        }
        let bytes = block.reduce(sinceCheckpoint) { $0 + $1.approximateByteCount }
        if isRestore || (old.version > 1 && bytes >= max(Self.checkpointSpacing, next.byteCount)) {
            block[block.count - 1] = block[block.count - 1].carrying(Checkpoint.bytes(of: next))
        }
        return block
    }

    /// The fewest bytes of events between two checkpoints. Measured (BENCHMARKS.md, "The hot
    /// path"): a checkpoint of a small session costs about 16,600 instructions; at 1 KiB one came
    /// every 8 push/pop mutations (2,100 instructions a mutation), at 8 KiB one comes about every
    /// 67 (250), while reading a version replays at most about 67 such events more.
    static let checkpointSpacing = 8192
}
