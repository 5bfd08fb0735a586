import Foundation
import GRDB
public import MinervaSessions

extension SQLiteSessionStorage {
    /// The tables of experiment units and their facts: rows that outlive their sessions.
    static func createExperimentTables(_ db: Database) throws {
        try db.create(table: "experimentUnit", options: [.withoutRowID]) { table in
            table.column("session", .text).notNull()
            table.column("experiment", .text).notNull()
            table.column("seed", .text).notNull()
            table.column("unit", .text).notNull()
            table.column("variant", .text).notNull()
            table.column("assigned", .integer).notNull()
            table.primaryKey(["session", "experiment"])
        }
        try db.create(index: "experimentUnitSeed", on: "experimentUnit", columns: ["experiment", "seed"])
        try db.create(index: "experimentUnitUnit", on: "experimentUnit", columns: ["unit"])
        try db.create(table: "experimentFact", options: [.withoutRowID]) { table in
            table.column("session", .text).notNull()
            table.column("experiment", .text).notNull()
            table.column("fact", .text).notNull()
            table.column("firstAt", .integer).notNull()
            table.column("lastAt", .integer).notNull()
            table.primaryKey(["session", "experiment", "fact"])
        }
    }

    /// Keeps a committed write's experiment rows, and its facts (first and newest time) for the experiments the session has a row of.
    static func keepExperiments(of change: SessionWrite, in db: Database) throws {
        let session = change.record.id
        let insertUnit = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO experimentUnit (session, experiment, seed, unit, variant, assigned) VALUES (?, ?, ?, ?, ?, ?)")
        for unit in change.experimentUnits {
            try insertUnit.execute(arguments: [session, unit.experiment, unit.seed, unit.unit, unit.variant, unit.assigned])
        }
        let insertFact = try db.cachedStatement(
            sql: """
                INSERT INTO experimentFact (session, experiment, fact, firstAt, lastAt)
                SELECT ?1, ?2, ?3, ?4, ?4 WHERE EXISTS (SELECT 1 FROM experimentUnit WHERE session = ?1 AND experiment = ?2)
                ON CONFLICT (session, experiment, fact) DO UPDATE SET firstAt = min(firstAt, excluded.firstAt), lastAt = max(lastAt, excluded.lastAt)
                """)
        for fact in change.experimentFacts {
            try insertFact.execute(arguments: [session, fact.experiment, fact.name.rawValue, fact.at])
        }
    }

    public func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
        try storage {
            try pool.read { db in
                var facts: [String: [ExperimentFact.Name: FactTimes]] = [:]
                let factRows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT fact.session, fact.fact, fact.firstAt, fact.lastAt FROM experimentFact fact JOIN experimentUnit unit
                            ON unit.session = fact.session AND unit.experiment = fact.experiment
                        WHERE unit.experiment = ? AND unit.seed = ?
                        """, arguments: [experiment, seed])
                while let row = try factRows.next() {
                    facts[row[0], default: [:]][ExperimentFact.Name(rawValue: row[1])] = FactTimes(first: row[2], last: row[3])
                }
                return try Row.fetchAll(
                    db, sql: "SELECT session, unit, variant, assigned FROM experimentUnit WHERE experiment = ? AND seed = ?",
                    arguments: [experiment, seed]
                ).map { row in
                    let record = ExperimentUnitRecord(
                        session: row[0], experiment: experiment, seed: seed, unit: row[1], variant: row[2], assigned: row[3])
                    return StoredExperimentUnit(record: record, facts: facts[record.session] ?? [:])
                }
            }
        }
    }

    public func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int {
        try storage {
            try pool.write { db in
                try db.execute(
                    sql: """
                        DELETE FROM experimentFact WHERE EXISTS (SELECT 1 FROM experimentUnit unit
                            WHERE unit.unit = ? AND unit.session = experimentFact.session AND unit.experiment = experimentFact.experiment)
                        """, arguments: [unit])
                try db.execute(sql: "DELETE FROM experimentUnit WHERE unit = ?", arguments: [unit])
                return db.changesCount
            }
        }
    }
}
