public import MinervaSessions

extension PostgresSessionStorage {
    public func grants(of id: String) throws(StorageError) -> [TokenGrant] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT id, scope, hash, label, created_at FROM minerva_token_grant WHERE session = $1 ORDER BY created_at, id", [.text(id)],
                until: deadline)
            return (0..<rows.count).compactMap { Self.grant(rows, $0) }
        }
    }

    public func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT id, scope, hash, label, created_at FROM minerva_token_grant WHERE session = $1 AND hash = $2", [.text(id), .bytes(hash)],
                until: deadline)
            return rows.count == 1 ? Self.grant(rows, 0) : nil
        }
    }

    /// One statement: the session's row counts its grants under its lock (a second issue at the
    /// same instant waits and counts again), and the grant goes in only when there is room.
    public func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                WITH slot AS (UPDATE minerva_session SET grants = grants + 1 WHERE id = $1 AND grants < $7 RETURNING id),
                     added AS (INSERT INTO minerva_token_grant (session, id, scope, hash, label, created_at)
                               SELECT $1, $2, $3, $4, NULLIF($5, ''), $6 FROM slot RETURNING 1)
                SELECT EXISTS (SELECT 1 FROM minerva_session WHERE id = $1), (SELECT count(*) FROM added) = 1
                """,
                [.text(id), .text(grant.id), .text(grant.scope.rawValue), .bytes(grant.hash), .text(grant.label ?? ""), .int(grant.createdAt), .int(limit)],
                until: deadline)
            return rows.bool(0, 1) ? .added : rows.bool(0, 0) ? .full : .noSession
        }
    }

    public func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                WITH gone AS (DELETE FROM minerva_token_grant WHERE session = $1 AND id = $2 RETURNING session)
                UPDATE minerva_session SET grants = grants - 1 WHERE id IN (SELECT session FROM gone) RETURNING 1
                """,
                [.text(id), .text(grantID)], until: deadline)
            return rows.count == 1
        }
    }

    /// A grant from a row of `id, scope, hash, label, created_at` (`nil` for a scope this build does not know).
    private static func grant(_ rows: PostgresRows, _ row: Int) -> TokenGrant? {
        guard let scope = TokenScope(rawValue: rows.text(row, 1)) else { return nil }
        return TokenGrant(
            id: rows.text(row, 0), scope: scope, hash: rows.bytes(row, 2), label: rows.rows[row][3] == nil ? nil : rows.text(row, 3),
            createdAt: rows.int(row, 4))
    }
}
