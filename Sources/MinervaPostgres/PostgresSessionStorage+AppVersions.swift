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

    public func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) {
        try call { connection, deadline throws(PostgresError) in
            _ = try connection.query(
                "INSERT INTO minerva_app_description (version, document) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING",
                [.text(version), .bytes(document)], until: deadline)
        }
    }

    public func appDescription(version: String) throws(StorageError) -> [UInt8]? {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query("SELECT document FROM minerva_app_description WHERE version = $1", [.text(version)], until: deadline)
            return rows.count == 0 ? nil : rows.bytes(0, 0)
        }
    }
}
