import MinervaSessions

extension PostgresSessionStorage {
    /// The key of the advisory lock under which instances migrate the schema one at a time.
    static let migrationLock = 0x6D69_6E65_7276_6101
    /// The key of the advisory lock the expiry sweeper holds, so that one instance sweeps at a time.
    static let sweeperLock = 0x6D69_6E65_7276_6102

    /// The schema's history: each migration runs once per database, in order, in one transaction.
    static let migrations: [String] = [
        """
        CREATE TABLE minerva_session (
            id text PRIMARY KEY,
            token_hash bytea NOT NULL,
            version bigint NOT NULL,
            last_event bigint NOT NULL,
            first_event bigint NOT NULL,
            app_version text NOT NULL,
            state bytea NOT NULL,
            last_used double precision NOT NULL
        );
        CREATE INDEX minerva_session_last_used ON minerva_session (last_used);
        CREATE TABLE minerva_event (
            session text NOT NULL REFERENCES minerva_session (id) ON DELETE CASCADE,
            seq bigint NOT NULL,
            body bytea NOT NULL,
            PRIMARY KEY (session, seq)
        );
        CREATE TABLE minerva_list (
            session text NOT NULL REFERENCES minerva_session (id) ON DELETE CASCADE,
            node text NOT NULL,
            version bigint NOT NULL,
            body bytea NOT NULL,
            PRIMARY KEY (session, node, version)
        );
        CREATE TABLE minerva_answer (
            session text NOT NULL REFERENCES minerva_session (id) ON DELETE CASCADE,
            key text NOT NULL,
            stored_at double precision NOT NULL,
            body bytea NOT NULL,
            PRIMARY KEY (session, key)
        );
        CREATE INDEX minerva_answer_stored_at ON minerva_answer (stored_at);
        CREATE TABLE minerva_creation (
            key text PRIMARY KEY,
            stored_at double precision NOT NULL,
            body bytea NOT NULL
        );
        CREATE INDEX minerva_creation_stored_at ON minerva_creation (stored_at);
        """,
        """
        CREATE SEQUENCE minerva_app_generation;
        CREATE TABLE minerva_app_version (
            version text PRIMARY KEY,
            generation bigint NOT NULL
        );
        """,
        """
        ALTER TABLE minerva_event ADD COLUMN checkpoint boolean NOT NULL DEFAULT false;
        """,
        analyticsMigration,
        """
        CREATE TABLE minerva_app_description (
            version text PRIMARY KEY,
            document bytea NOT NULL
        );
        """,
        """
        CREATE TABLE minerva_health_probe (
            instance text PRIMARY KEY,
            at timestamptz NOT NULL
        );
        """,
        // A list version no longer current was shown until the event that replaced it; those kept
        // before are taken as shown by no kept event, as the store then kept them only for diffs.
        // Events stored before have no version: reading an earlier version then reads the whole log.
        """
        ALTER TABLE minerva_list ADD COLUMN shown_until bigint;
        UPDATE minerva_list list SET shown_until = 0
            WHERE version < (SELECT max(version) FROM minerva_list newest WHERE newest.session = list.session AND newest.node = list.node);
        CREATE INDEX minerva_list_current ON minerva_list (session, node, version) WHERE shown_until IS NULL;
        CREATE INDEX minerva_list_shown_until ON minerva_list (session, shown_until) WHERE shown_until IS NOT NULL;
        ALTER TABLE minerva_event ADD COLUMN version bigint;
        CREATE INDEX minerva_event_checkpoint ON minerva_event (session, version) WHERE checkpoint;
        """,
        // When each session was made (what bounds a device's time of a change); sessions made
        // before have none, and a device's time of their changes is bounded by the server's clock alone.
        """
        ALTER TABLE minerva_session ADD COLUMN created_at double precision;
        """,
        groupFunctionMigration,
        // The key that seals the changes commit notices carry: NOTIFY and LISTEN need no privilege,
        // so any role that can connect could read or send notices; only a role that reads this
        // table (none but the owner, by default) can open or seal a change (see CommitNotice+Payload).
        """
        CREATE TABLE minerva_notice_key (id integer PRIMARY KEY CHECK (id = 1), key bytea NOT NULL);
        """,
        // Extra tokens a session's owner issued; `grants` counts them on the session's row, so that
        // issuing one takes the row's lock and two at the same instant cannot pass the limit.
        """
        ALTER TABLE minerva_session ADD COLUMN grants integer NOT NULL DEFAULT 0;
        CREATE TABLE minerva_token_grant (
            session text NOT NULL REFERENCES minerva_session (id) ON DELETE CASCADE,
            id text NOT NULL,
            scope text NOT NULL,
            hash bytea NOT NULL,
            label text,
            created_at bigint NOT NULL,
            PRIMARY KEY (session, id)
        );
        """,
        experimentsMigration,
    ]

    /// Brings the schema up to date under an advisory lock, so that instances starting together
    /// migrate once, and reads the key that seals notices (made by the first instance to start).
    static func migrate(_ pool: PostgresPool) throws(PostgresError) -> [UInt8] {
        try pool.withConnection(timeout: .seconds(30)) { connection, deadline throws(PostgresError) -> [UInt8] in
            try connection.execute("SELECT pg_advisory_lock(\(Self.migrationLock))", until: deadline)
            defer { try? connection.execute("SELECT pg_advisory_unlock(\(Self.migrationLock))", until: deadline) }
            // Only when it is missing: creating needs CREATE on the schema, which a role that runs
            // on tables created beforehand need not have.
            if try connection.query("SELECT to_regclass('minerva_migration') IS NULL", until: deadline).bool(0, 0) {
                try connection.execute(
                    "CREATE TABLE minerva_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                    until: deadline)
            }
            let applied = try connection.query("SELECT COALESCE(MAX(version), 0)::int8 FROM minerva_migration", until: deadline).int(0, 0)
            for (index, migration) in Self.migrations.enumerated() where index + 1 > applied {
                try connection.execute(
                    "BEGIN; \(migration); INSERT INTO minerva_migration (version) VALUES (\(index + 1)); COMMIT", until: deadline)
            }
            let fresh = CommitNotice.freshKey()
            try connection.query("INSERT INTO minerva_notice_key (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING", [.bytes(fresh)], until: deadline)
            return try connection.query("SELECT key FROM minerva_notice_key WHERE id = 1", until: deadline).bytes(0, 0)
        }
    }
}
