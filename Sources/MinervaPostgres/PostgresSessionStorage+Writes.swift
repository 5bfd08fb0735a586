public import MinervaSessions

extension PostgresSessionStorage {
    public func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
        // Rows are locked in id order whichever instance commits, so two groups never deadlock
        // over the same sessions (a rare one against the sweeper is retried).
        let order = writes.indices.sorted { Self.lockKey(writes[$0]) < Self.lockKey(writes[$1]) }
        let outcomes = try transaction(outcomeUnknown: true, announcing: { outcomes in self.notices(of: writes, outcomes) }) {
            connection, deadline throws(PostgresError) -> [WriteOutcome] in
            var outcomes = [WriteOutcome](repeating: .committed, count: writes.count)
            for index in order {
                switch writes[index] {
                case .session(let change):
                    outcomes[index] = try save(change, on: connection, until: deadline)
                case .delete(let id):
                    try connection.query("DELETE FROM minerva_session WHERE id = $1", [.text(id)], until: deadline)
                case .touch(let usage):
                    for (id, lastUsed) in usage.sorted(by: { $0.id < $1.id }) {
                        try connection.query(
                            "UPDATE minerva_session SET last_used = GREATEST(last_used, $2) WHERE id = $1", [.text(id), .double(lastUsed)],
                            until: deadline)
                    }
                }
            }
            return outcomes
        }
        return outcomes
    }

    /// What the committed writes of a group announce: `instance session lastEvent`, or `-` for a deletion.
    private func notices(of writes: [StorageWrite], _ outcomes: [WriteOutcome]) -> [String] {
        var notices: [String] = []
        for (write, outcome) in zip(writes, outcomes) where outcome == .committed {
            switch write {
            case .session(let change): notices.append("\(instance) \(change.record.id) \(change.record.lastEvent)")
            case .delete(let id): notices.append("\(instance) \(id) -")
            case .touch: break
            }
        }
        return notices
    }

    public func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
        try transaction(announcing: { ids in ids.map { "\(self.instance) \($0) -" } }) { connection, deadline throws(PostgresError) -> [String] in
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

    /// Writes one session's change; `conflict` (and nothing written) when the stored session's
    /// newest event is not the expected one (another instance's write of the same events
    /// committed first), a session to create exists already, or another instance stored a
    /// creation with the same `Idempotency-Key` first.
    private func save(_ change: SessionWrite, on connection: PostgresConnection, until deadline: ContinuousClock.Instant) throws(PostgresError)
        -> WriteOutcome
    {
        let record = change.record
        let id = PostgresValue.text(record.id)
        var claimsFirstEvent = false
        if let expected = change.expectedLastEvent {
            // The row is locked (KEY SHARE: other writers of the session still pass) so that a
            // deletion committed meanwhile reads as a missing session, a conflict, rather than
            // failing the group's events on their foreign key.
            let newest = try connection.query(
                """
                WITH head AS (SELECT last_event FROM minerva_session WHERE id = $1 FOR KEY SHARE)
                SELECT GREATEST(last_event, COALESCE((SELECT max(seq) FROM minerva_event WHERE session = $1), 0)) FROM head
                """, [id], until: deadline)
            guard newest.count == 1, newest.int(0, 0) == expected else { return .conflict }
            // Another instance's write from the same newest event claims the same first `seq`: the
            // one that commits first keeps it, the other finds it taken (below) and conflicts.
            claimsFirstEvent = true
        } else {
            if let creation = change.creation {
                // A key stored already (and not expired) refuses the creation.
                let claimed = try connection.query(
                    """
                    INSERT INTO minerva_creation (key, stored_at, body) VALUES ($1, $2, $3) ON CONFLICT (key)
                    DO UPDATE SET stored_at = EXCLUDED.stored_at, body = EXCLUDED.body WHERE minerva_creation.stored_at < $4
                    """,
                    [.text(creation.key), .double(creation.storedAt), .bytes(creation.body), .double(change.creationKeysExpireBefore)],
                    until: deadline)
                guard claimed.affected == 1 else { return .conflict }
            }
            let inserted = try connection.query(
                """
                INSERT INTO minerva_session (id, token_hash, version, last_event, first_event, app_version, state, last_used, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULLIF($9, 'NaN'::float8)) ON CONFLICT (id) DO NOTHING
                """,
                [id, .bytes(record.tokenHash), .int(record.version), .int(record.lastEvent), .int(record.firstEvent), .text(record.appVersion),
                 .bytes(record.state), .double(record.lastUsed), .double(record.createdAt ?? .nan)], until: deadline)
            // A session id collision is all but impossible (128 random bits); the creation's key,
            // if any, was claimed above and would stay claimed, so it is released.
            guard inserted.affected == 1 else {
                if let creation = change.creation {
                    try connection.query("DELETE FROM minerva_creation WHERE key = $1", [.text(creation.key)], until: deadline)
                }
                return .conflict
            }
        }
        for event in change.newEvents {
            let inserted = try connection.query(
                """
                INSERT INTO minerva_event (session, seq, body, checkpoint, version) VALUES ($1, $2, $3, $4, NULLIF($5, -1))
                ON CONFLICT (session, seq) DO NOTHING
                """,
                [id, .int(event.seq), .bytes(event.body), .bool(event.carriesCheckpoint), .int(event.version ?? -1)],
                until: deadline)
            if claimsFirstEvent {
                guard inserted.affected == 1 else { return .conflict }
                claimsFirstEvent = false
            }
        }
        if change.expectedLastEvent != nil, change.writesHead {
            try connection.query(
                "UPDATE minerva_session SET version = $2, last_event = $3, app_version = $4, state = $5, last_used = $6 WHERE id = $1",
                [id, .int(record.version), .int(record.lastEvent), .text(record.appVersion), .bytes(record.state), .double(record.lastUsed)],
                until: deadline)
        }
        if let oldest = change.oldestKeptEvent {
            try connection.query(
                """
                DELETE FROM minerva_event WHERE session = $1
                    AND seq < COALESCE((SELECT max(seq) FROM minerva_event WHERE session = $1 AND checkpoint AND seq < $2), $2)
                """, [id, .int(oldest)], until: deadline)
        }
        for (node, at) in change.supersededLists {
            try connection.query(
                "UPDATE minerva_list SET shown_until = $3 WHERE session = $1 AND node = $2 AND shown_until IS NULL", [id, .text(node), .int(at)],
                until: deadline)
        }
        for node in change.restartedLists {
            try connection.query("DELETE FROM minerva_list WHERE session = $1 AND node = $2", [id, .text(node)], until: deadline)
        }
        for list in change.newListVersions {
            try connection.query(
                """
                INSERT INTO minerva_list (session, node, version, body, shown_until) VALUES ($1, $2, $3, $4, NULL)
                ON CONFLICT (session, node, version) DO UPDATE SET body = EXCLUDED.body, shown_until = NULL
                """,
                [id, .text(list.node), .int(list.version), .bytes(list.body)], until: deadline)
        }
        if change.oldestKeptEvent != nil {
            // The versions no kept event shows go, except a living node's newest retained ones.
            try connection.query(
                """
                DELETE FROM minerva_list list WHERE session = $1
                    AND shown_until < COALESCE((SELECT min(seq) FROM minerva_event WHERE session = $1), $2)
                    AND version < COALESCE((SELECT current.version FROM minerva_list current
                        WHERE current.session = $1 AND current.node = list.node AND current.shown_until IS NULL) - $3, $2)
                """, [id, .int(Int.max), .int(min(change.retainedListVersions, Int(Int32.max)))], until: deadline)
        }
        for answer in change.newAnswers {
            try connection.query(
                """
                INSERT INTO minerva_answer (session, key, stored_at, body) VALUES ($1, $2, $3, $4)
                ON CONFLICT (session, key) DO UPDATE SET stored_at = EXCLUDED.stored_at, body = EXCLUDED.body
                """,
                [id, .text(answer.key), .double(answer.storedAt), .bytes(answer.body)], until: deadline)
        }
        if change.keptAnswers < Int.max, !change.newAnswers.isEmpty {
            try connection.query(
                """
                DELETE FROM minerva_answer WHERE session = $1 AND key NOT IN
                (SELECT key FROM minerva_answer WHERE session = $1 ORDER BY stored_at DESC LIMIT $2)
                """,
                [id, .int(change.keptAnswers)], until: deadline)
        }
        return .committed
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
