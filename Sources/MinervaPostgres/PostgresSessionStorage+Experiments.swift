public import MinervaSessions

extension PostgresSessionStorage {
    /// The migration of experiment units and their facts: two tables (rows that outlive their
    /// sessions), and `minerva_commit_group` taking a group's experiment rows too: an overload of
    /// the function the group call ran so far (which instances of the release before keep
    /// calling while instances are upgraded one by one), that calls it and writes, in the same
    /// call and transaction, the rows of the writes that did not conflict.
    static let experimentsMigration = """
        CREATE TABLE minerva_experiment_unit (
            session text NOT NULL,
            experiment text NOT NULL,
            seed text NOT NULL,
            unit text NOT NULL,
            variant text NOT NULL,
            assigned bigint NOT NULL,
            PRIMARY KEY (session, experiment)
        );
        CREATE INDEX minerva_experiment_unit_seed ON minerva_experiment_unit (experiment, seed);
        CREATE INDEX minerva_experiment_unit_unit ON minerva_experiment_unit (unit);
        CREATE TABLE minerva_experiment_fact (
            session text NOT NULL,
            experiment text NOT NULL,
            fact text NOT NULL,
            first_at bigint NOT NULL,
            last_at bigint NOT NULL,
            PRIMARY KEY (session, experiment, fact)
        );
        CREATE FUNCTION minerva_commit_group(
            \(sessionArgumentTypes.joined(separator: ", ")),
            u_write int[], u_experiment text[], u_seed text[], u_unit text[], u_variant text[], u_assigned bigint[],
            f_write int[], f_experiment text[], f_fact text[], f_at bigint[]
        ) RETURNS int[] LANGUAGE plpgsql AS $body$
        DECLARE
            conflicts int[];
        BEGIN
            conflicts := minerva_commit_group(\((1...sessionArgumentTypes.count).map { "$\($0)" }.joined(separator: ", ")));
            IF cardinality(u_write) = 0 AND cardinality(f_write) = 0 THEN
                RETURN conflicts;
            END IF;
            -- $2 is the writes' session ids; a position counts from 1, a conflict from 0
            INSERT INTO minerva_experiment_unit (session, experiment, seed, unit, variant, assigned)
                SELECT $2[u.w], u.experiment, u.seed, u.unit, u.variant, u.assigned
                FROM unnest(u_write, u_experiment, u_seed, u_unit, u_variant, u_assigned) AS u(w, experiment, seed, unit, variant, assigned)
                WHERE u.w - 1 <> ALL (conflicts)
                ON CONFLICT (session, experiment) DO NOTHING;
            INSERT INTO minerva_experiment_fact (session, experiment, fact, first_at, last_at)
                SELECT $2[f.w], f.experiment, f.fact, f.at, f.at
                FROM unnest(f_write, f_experiment, f_fact, f_at) AS f(w, experiment, fact, at)
                WHERE f.w - 1 <> ALL (conflicts)
                    AND EXISTS (SELECT 1 FROM minerva_experiment_unit unit WHERE unit.session = $2[f.w] AND unit.experiment = f.experiment)
                ON CONFLICT (session, experiment, fact) DO UPDATE SET first_at = LEAST(minerva_experiment_fact.first_at, EXCLUDED.first_at),
                    last_at = GREATEST(minerva_experiment_fact.last_at, EXCLUDED.last_at);
            RETURN conflicts;
        END
        $body$
        """

    /// The types of the arguments of the group function ``groupFunctionMigration`` installed, in
    /// order: the overload's first ones, passed on to it.
    private static let sessionArgumentTypes = [
        "boolean[]", "text[]", "bigint[]", "bytea[]", "bigint[]", "bigint[]",
        "bigint[]", "text[]", "bytea[]", "float8[]", "float8[]", "boolean[]",
        "bigint[]", "bigint[]", "bigint[]",
        "text[]", "float8[]", "bytea[]", "float8[]",
        "int[]", "bigint[]", "bytea[]", "boolean[]", "bigint[]",
        "int[]", "text[]", "bigint[]",
        "int[]", "text[]",
        "int[]", "text[]", "bigint[]", "bytea[]",
        "int[]", "text[]", "float8[]", "bytea[]",
        "text[]", "float8[]",
    ]

    /// Both reads in one snapshot (a repeatable-read transaction), bounded as a report is.
    public func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
        try report { connection, deadline throws(PostgresError) in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", until: deadline)
            defer { try? connection.execute("ROLLBACK", until: deadline) }
            let units = try connection.query(
                "SELECT session, unit, variant, assigned FROM minerva_experiment_unit WHERE experiment = $1 AND seed = $2",
                [.text(experiment), .text(seed)], until: deadline)
            let facts = try connection.query(
                """
                SELECT fact.session, fact.fact, fact.first_at, fact.last_at FROM minerva_experiment_fact fact JOIN minerva_experiment_unit unit
                    ON unit.session = fact.session AND unit.experiment = fact.experiment
                WHERE unit.experiment = $1 AND unit.seed = $2
                """,
                [.text(experiment), .text(seed)], until: deadline)
            var factsBySession: [String: [ExperimentFact.Name: FactTimes]] = [:]
            for row in 0..<facts.count {
                factsBySession[facts.text(row, 0), default: [:]][ExperimentFact.Name(rawValue: facts.text(row, 1))] =
                    FactTimes(first: facts.int(row, 2), last: facts.int(row, 3))
            }
            return (0..<units.count).map { row in
                let record = ExperimentUnitRecord(
                    session: units.text(row, 0), experiment: experiment, seed: seed, unit: units.text(row, 1), variant: units.text(row, 2),
                    assigned: units.int(row, 3))
                return StoredExperimentUnit(record: record, facts: factsBySession[record.session] ?? [:])
            }
        }
    }

    public func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int {
        try call { connection, deadline throws(PostgresError) in
            let rows = try connection.query(
                """
                WITH gone AS (DELETE FROM minerva_experiment_unit WHERE unit = $1 RETURNING session, experiment),
                     facts AS (DELETE FROM minerva_experiment_fact fact USING gone
                               WHERE fact.session = gone.session AND fact.experiment = gone.experiment RETURNING 1)
                SELECT count(*) FROM gone
                """,
                [.text(unit)], until: deadline)
            return rows.int(0, 0)
        }
    }
}
