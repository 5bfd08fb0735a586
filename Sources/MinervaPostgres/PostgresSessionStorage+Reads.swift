public import MinervaSessions

extension PostgresSessionStorage {
    public func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
        // One snapshot for the row and what hangs off it, as a concurrent commit may change both.
        try transaction("REPEATABLE READ READ ONLY") { connection, deadline throws(PostgresError) -> StoredSession? in
            let rows = try connection.query(
                "SELECT token_hash, version, last_event, first_event, app_version, state, last_used FROM minerva_session WHERE id = $1",
                [.text(id)], until: deadline)
            guard rows.count == 1 else { return nil }
            let record = SessionRecord(
                id: id, tokenHash: rows.bytes(0, 0), version: rows.int(0, 1), lastEvent: rows.int(0, 2), firstEvent: rows.int(0, 3),
                appVersion: rows.text(0, 4), state: rows.bytes(0, 5), lastUsed: rows.double(0, 6))
            let events = try connection.query(
                "SELECT seq, body FROM minerva_event WHERE session = $1 ORDER BY seq DESC LIMIT $2", [.text(id), .int(eventTail)],
                until: deadline)
            let lists = try connection.query(
                "SELECT node, version, body FROM minerva_list WHERE session = $1 ORDER BY node, version", [.text(id)], until: deadline)
            let answers = try connection.query(
                "SELECT key, stored_at, body FROM minerva_answer WHERE session = $1 ORDER BY stored_at", [.text(id)], until: deadline)
            return StoredSession(
                record: record,
                events: (0..<events.count).reversed().map { EventRecord(seq: events.int($0, 0), body: events.bytes($0, 1)) },
                lists: (0..<lists.count).map { ListRecord(node: lists.text($0, 0), version: lists.int($0, 1), body: lists.bytes($0, 2)) },
                answers: (0..<answers.count).map {
                    AnswerRecord(key: answers.text($0, 0), storedAt: answers.double($0, 1), body: answers.bytes($0, 2))
                })
        }
    }

    public func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT seq, body FROM minerva_event WHERE session = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
                [.text(id), .int(after), .int(last)], until: deadline)
            return (0..<rows.count).map { EventRecord(seq: rows.int($0, 0), body: rows.bytes($0, 1)) }
        }
    }

    public func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT body FROM minerva_list WHERE session = $1 AND node = $2 AND version = $3", [.text(id), .text(node), .int(version)],
                until: deadline)
            return rows.count == 1 ? ListRecord(node: node, version: version, body: rows.bytes(0, 0)) : nil
        }
    }

    public func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT stored_at, body FROM minerva_answer WHERE session = $1 AND key = $2", [.text(id), .text(key)], until: deadline)
            return rows.count == 1 ? AnswerRecord(key: key, storedAt: rows.double(0, 0), body: rows.bytes(0, 1)) : nil
        }
    }

    public func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query("SELECT stored_at, body FROM minerva_creation WHERE key = $1", [.text(key)], until: deadline)
            return rows.count == 1 ? AnswerRecord(key: key, storedAt: rows.double(0, 0), body: rows.bytes(0, 1)) : nil
        }
    }

    public func sessionCount() throws(StorageError) -> Int {
        try call { connection, deadline throws(PostgresError) in
            try connection.query("SELECT COUNT(*) FROM minerva_session", until: deadline).int(0, 0)
        }
    }

    public func head(of id: String) throws(StorageError) -> SessionHead? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query("SELECT version, last_event FROM minerva_session WHERE id = $1", [.text(id)], until: deadline)
            return rows.count == 1 ? SessionHead(version: rows.int(0, 0), lastEvent: rows.int(0, 1)) : nil
        }
    }

    public func lastEvents(of ids: [String]) throws(StorageError) -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        return try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT id, last_event FROM minerva_session WHERE id = ANY($1::text[])", [.textArray(ids)], until: deadline)
            var found: [String: Int] = [:]
            for row in 0..<rows.count { found[rows.text(row, 0)] = rows.int(row, 1) }
            return found
        }
    }

    public func checkReachable() throws(StorageError) {
        try call { connection, deadline throws(PostgresError) in _ = try connection.query("SELECT 1", until: deadline) }
    }
}
