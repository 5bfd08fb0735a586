public import MinervaSessions

extension PostgresSessionStorage {
    public func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
        switch try loadSession(id, eventTail: eventTail, unlessAt: SessionHead(version: -1, lastEvent: -1)) {
        case .changed(let stored): stored
        case .missing, .unchanged: nil
        }
    }

    /// The session's row and what hangs off it in one statement — one round trip, one snapshot —
    /// each part only when its newest event is not `known`'s (the row's head always); of the
    /// events, every one after the head and at least the newest `$2`; of the lists of the nodes
    /// there are now, each one's current and previous version and those the newest `$2` events replaced.
    static let loadStatement = """
        WITH newest AS (SELECT COALESCE(max(seq), 0) AS seq FROM minerva_event WHERE session = $1),
             head AS (SELECT last_event, GREATEST(last_event, (SELECT seq FROM newest)) <> $3 AS changed FROM minerva_session WHERE id = $1)
        SELECT 0 AS kind, version AS number, last_event AS second, first_event AS third, app_version AS text, last_used AS time,
               token_hash AS bytes, CASE WHEN (SELECT changed FROM head) THEN state END AS state, created_at AS created
            FROM minerva_session WHERE id = $1
        UNION ALL
        SELECT 1, seq, NULL, NULL, NULL, NULL, body, NULL, NULL FROM minerva_event
            WHERE session = $1 AND (SELECT changed FROM head)
              AND seq > LEAST((SELECT last_event FROM head), (SELECT seq FROM newest) - $2)
        UNION ALL
        SELECT 2, list.version, NULL, NULL, list.node, NULL, list.body, NULL, NULL FROM minerva_list list
            JOIN minerva_list current ON current.session = $1 AND current.node = list.node AND current.shown_until IS NULL
            WHERE list.session = $1 AND (SELECT changed FROM head)
              AND (list.version >= current.version - 1 OR list.shown_until > (SELECT seq FROM newest) - $2)
        UNION ALL
        SELECT 3, NULL, NULL, NULL, key, stored_at, body, NULL, NULL FROM minerva_answer WHERE session = $1 AND (SELECT changed FROM head)
        """

    public func loadSession(_ id: String, eventTail: Int, unlessAt known: SessionHead) throws(StorageError) -> SessionReading {
        let rows = try call { connection, deadline throws(PostgresError) in
            try connection.query(
                Self.loadStatement, [.text(id), .int(eventTail), .int(known.lastEvent)], until: deadline)
        }
        guard let row = (0..<rows.count).first(where: { rows.int($0, 0) == 0 }) else { return .missing }
        guard rows.rows[row][7] != nil else { return .unchanged }
        let record = SessionRecord(
            id: id, tokenHash: rows.bytes(row, 6), version: rows.int(row, 1), lastEvent: rows.int(row, 2), firstEvent: rows.int(row, 3),
            appVersion: rows.text(row, 4), state: rows.bytes(row, 7), lastUsed: rows.double(row, 5),
            createdAt: rows.rows[row][8] == nil ? nil : rows.double(row, 8))
        var events: [EventRecord] = []
        var lists: [ListRecord] = []
        var answers: [AnswerRecord] = []
        for index in 0..<rows.count {
            switch rows.int(index, 0) {
            case 1: events.append(EventRecord(seq: rows.int(index, 1), body: rows.bytes(index, 6)))
            case 2: lists.append(ListRecord(node: rows.text(index, 4), version: rows.int(index, 1), body: rows.bytes(index, 6)))
            case 3: answers.append(AnswerRecord(key: rows.text(index, 4), storedAt: rows.double(index, 5), body: rows.bytes(index, 6)))
            default: break
            }
        }
        events.sort { $0.seq < $1.seq }
        lists.sort { ($0.node, $0.version) < ($1.node, $1.version) }
        answers.sort { $0.storedAt < $1.storedAt }
        return .changed(StoredSession(record: record, events: events, lists: lists, answers: answers))
    }

    /// The head row and the events after `$2`, in one statement (one snapshot).
    static let tailStatement = """
        SELECT 0 AS kind, version AS number, last_event AS second, app_version AS text, NULL::bytea AS body FROM minerva_session WHERE id = $1
        UNION ALL
        SELECT 1, seq, NULL, NULL, body FROM minerva_event WHERE session = $1 AND seq > $2
        """

    public func loadTail(of id: String, after known: Int) throws(StorageError) -> StoredTail? {
        let rows = try call { connection, deadline throws(PostgresError) in
            try connection.query(Self.tailStatement, [.text(id), .int(known)], until: deadline)
        }
        guard let row = (0..<rows.count).first(where: { rows.int($0, 0) == 0 }) else { return nil }
        var events: [EventRecord] = []
        for index in 0..<rows.count where rows.int(index, 0) == 1 {
            events.append(EventRecord(seq: rows.int(index, 1), body: rows.bytes(index, 4)))
        }
        events.sort { $0.seq < $1.seq }
        return StoredTail(head: SessionHead(version: rows.int(row, 1), lastEvent: rows.int(row, 2)), appVersion: rows.text(row, 3), events: events)
    }

    public func tokenHash(of id: String) throws(StorageError) -> [UInt8]? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query("SELECT token_hash FROM minerva_session WHERE id = $1", [.text(id)], until: deadline)
            return rows.count == 1 ? rows.bytes(0, 0) : nil
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

    public func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                SELECT seq, body FROM minerva_event WHERE session = $1 AND seq <= $3
                    AND seq >= (SELECT max(seq) FROM minerva_event WHERE session = $1 AND checkpoint AND version <= GREATEST($2, 2)) ORDER BY seq
                """,
                [.text(id), .int(version), .int(last)], until: deadline)
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

    public func lastEvents(of ids: [String]) throws(StorageError) -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        return try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                SELECT id, GREATEST(last_event, COALESCE((SELECT max(seq) FROM minerva_event WHERE session = id), 0))
                    FROM minerva_session WHERE id = ANY($1::text[])
                """, [.textArray(ids)], until: deadline)
            var found: [String: Int] = [:]
            for row in 0..<rows.count { found[rows.text(row, 0)] = rows.int(row, 1) }
            return found
        }
    }

    public func checkReachable() throws(StorageError) {
        try call { connection, deadline throws(PostgresError) in _ = try connection.query("SELECT 1", until: deadline) }
    }

    public func checkWritable() throws(StorageError) {
        try call { connection, deadline throws(PostgresError) in
            _ = try connection.query(
                "INSERT INTO minerva_health_probe (instance, at) VALUES ($1, now()) ON CONFLICT (instance) DO UPDATE SET at = now()",
                [.text(instance)], until: deadline)
        }
    }
}
