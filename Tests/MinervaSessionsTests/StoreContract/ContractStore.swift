import Foundation
import Logging
@testable import MinervaPostgres
import MinervaSessions
import MinervaSQLite
import Testing

/// A store the contract suite runs on: which kind, made empty for each test.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The kinds this machine can run: PostgreSQL only with `MINERVA_TEST_POSTGRES` (the test
    /// command starts a private cluster and sets it).
    static var available: [StoreKind] {
        testPostgresURL == nil ? [.memory, .sqlite] : allCases
    }
}

/// An empty store of one kind, removed with this object: a database file of its own for SQLite,
/// a database of its own on the test cluster for PostgreSQL (so that no other test's sessions,
/// counts or paths are seen).
final class ContractStore {
    let kind: StoreKind
    /// The session store.
    let store: any SessionStorage
    /// Its flow analytics: the store itself, or beside the memory store the analytics memory
    /// store (as ``Persistence/memory`` pairs them).
    let analytics: any AnalyticsStorage
    private let removal: () -> Void

    init(_ kind: StoreKind) throws {
        self.kind = kind
        switch kind {
        case .memory:
            store = MemorySessionStorage()
            analytics = AnalyticsMemoryStore()
            removal = {}
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-contract-\(UUID().uuidString).sqlite").path
            let sqlite = try SQLiteSessionStorage(path: path)
            (store, analytics) = (sqlite, sqlite)
            removal = { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        case .postgres:
            let server = try #require(testPostgresURL)
            let name = "contract_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try Self.administer(server, "CREATE DATABASE \(name)")
            let url = server.replacingDatabase(with: name)
            let postgres = try PostgresSessionStorage(url: url, connections: 2, logger: Logger(label: "contract"))
            (store, analytics) = (postgres, postgres)
            removal = {
                postgres.close()
                try? Self.administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            }
        }
    }

    deinit {
        removal()
    }

    /// Runs a statement on the cluster's own database (what no transaction may hold).
    private static func administer(_ url: String, _ statement: String) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        try PostgresConnection.open(url, deadline: deadline).query(statement, until: deadline)
    }
}

extension String {
    /// This PostgreSQL URL with another database name (the path after the host).
    func replacingDatabase(with name: String) -> String {
        guard let scheme = range(of: "://"), let slash = self[scheme.upperBound...].firstIndex(of: "/") else { return self + "/" + name }
        let query = self[slash...].firstIndex(of: "?").map { String(self[$0...]) } ?? ""
        return String(self[..<slash]) + "/" + name + query
    }
}
