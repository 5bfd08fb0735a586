public import MinervaSessions

extension PostgresSessionStorage {
    public func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
        // Rows are locked in id order whichever instance commits, so two groups never deadlock
        // over the same sessions (a rare one against the sweeper is retried).
        let order = writes.indices.sorted { Self.lockKey(writes[$0]) < Self.lockKey(writes[$1]) }
        let group = PostgresGroupArguments(writes, order: order)
        return try statement(outcomeUnknown: true, announcing: { outcomes in self.notices(of: writes, outcomes) }) {
            connection, deadline throws(PostgresError) -> [WriteOutcome] in
            let conflicts = try connection.query(Self.commitGroupStatement, group.parameters, until: deadline).int32Array(0, 0)
            var outcomes = [WriteOutcome](repeating: .committed, count: writes.count)
            for position in conflicts { outcomes[group.writes[Int(position)]] = .conflict }
            return outcomes
        }
    }

    /// The call of the group function (``experimentsMigration`` installs the one in use).
    static let commitGroupStatement = "SELECT minerva_commit_group(\((1...PostgresGroupArguments.count).map { "$\($0)" }.joined(separator: ", ")))"

    /// What the committed writes of a group announce: each change, carried when it fits, or a deletion.
    private func notices(of writes: [StorageWrite], _ outcomes: [WriteOutcome]) -> [CommitNotice] {
        var notices: [CommitNotice] = []
        for (write, outcome) in zip(writes, outcomes) where outcome == .committed {
            switch write {
            case .session(let change): notices.append(CommitNotice(of: change, carryingIf: CommitNotice.fits))
            case .delete(let id): notices.append(CommitNotice(session: id, lastEvent: 0, deleted: true))
            case .touch: break
            }
        }
        return notices
    }

    public func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
        try transaction(announcing: { ids in ids.map { CommitNotice(session: $0, lastEvent: 0, deleted: true) } }) { connection, deadline throws(PostgresError) -> [String] in
            // One instance sweeps at a time; the others find the lock taken and skip this round.
            guard try connection.query("SELECT pg_try_advisory_xact_lock($1)", [.int(Self.sweeperLock)], until: deadline).bool(0, 0) else {
                return []
            }
            let rows = try connection.query(
                "DELETE FROM minerva_session WHERE last_used < $1 RETURNING id", [.double(cutoff)], until: deadline)
            try connection.query("DELETE FROM minerva_creation WHERE stored_at < $1", [.double(answersBefore)], until: deadline)
            try connection.query("DELETE FROM minerva_answer WHERE stored_at < $1", [.double(answersBefore)], until: deadline)
            return (0..<rows.count).map { rows.text($0, 0) }
        }
    }

    /// The row a write locks first.
    private static func lockKey(_ write: StorageWrite) -> String {
        switch write {
        case .session(let change): change.record.id
        case .delete(let id): id
        case .touch: "~"  // after every session id (ids start with "s_")
        }
    }
}
