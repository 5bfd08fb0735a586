public import MinervaSessions

extension PostgresSessionStorage {
    /// Makes `version` the newest unless it is already: a version older than the newest takes a
    /// new generation, so that loading an earlier file again (a rollback) makes it the newest.
    public func announceAppVersion(_ version: String) throws(StorageError) {
        try call { connection, deadline throws(PostgresError) in
            _ = try connection.query(
                """
                INSERT INTO minerva_app_version (version, generation) VALUES ($1, nextval('minerva_app_generation'))
                ON CONFLICT (version) DO UPDATE SET generation = nextval('minerva_app_generation')
                WHERE minerva_app_version.generation < (SELECT max(generation) FROM minerva_app_version)
                """, [.text(version)], until: deadline)
        }
    }

    public func appVersionGenerations(_ first: String, _ second: String) throws(StorageError) -> [String: Int] {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                "SELECT version, generation FROM minerva_app_version WHERE version IN ($1, $2)", [.text(first), .text(second)], until: deadline)
            var generations: [String: Int] = [:]
            for row in 0..<rows.count { generations[rows.text(row, 0)] = rows.int(row, 1) }
            return generations
        }
    }
}
