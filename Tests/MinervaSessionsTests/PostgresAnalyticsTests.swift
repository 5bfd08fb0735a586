import Dispatch
import Foundation
import Locking
import Logging
import MinervaCoordinator
@testable import MinervaPostgres
@testable import MinervaSessions
import Testing

/// Analytics of several instances on one PostgreSQL database: each change is counted once, by
/// the instance that committed it, and rollups add up whichever instance records first.
@Suite(.enabled(if: testPostgresURL != nil, "set MINERVA_TEST_POSTGRES to a PostgreSQL database URL"))
struct PostgresAnalyticsTests {
    let opened = PostgresStoreTests.Opened()
    /// Screens of their own, so that other tests on the same database change none of their figures.
    let prefix = "t" + Token.random(bytes: 6).filter(\.isLetter)

    var app: AppDescription {
        let text = """
            {"name": "analytics", "root": {"screen": "\(prefix)Home"},
             "screens": {"\(prefix)Home": {"presentation": "push"}, "\(prefix)Profile": {"presentation": "push"}}}
            """
        return try! AppDescription.parse(Array(text.utf8), source: "test")
    }

    func instance() throws -> CoreHarness {
        let store = opened.add(try PostgresSessionStorage(url: testPostgresURL!, connections: 4, logger: Logger(label: "test")))
        return try CoreHarness(app: app, storage: store, configuration: SessionConfiguration(rateLimit: 0))
    }

    func figures(_ harness: CoreHarness) throws -> [String: ScreenFigures] {
        let counts = try harness.core.analytics.storage.analyticsCounts(from: nil, until: nil).filter { $0.key.screen.hasPrefix(prefix) }
        return Dictionary(uniqueKeysWithValues: AnalyticsReports.screens(counts).map { ($0.screen, $0) })
    }

    @Test func eachChangeIsCountedOnceByTheInstanceThatCommittedIt() throws {
        let a = try instance()
        let b = try instance()
        let sessions = 40
        let group = DispatchGroup()
        let failures = Locked(0)
        for index in 0..<sessions {
            DispatchQueue.global().async(group: group) {
                do {
                    let (onA, token) = try a.create()
                    _ = try a.run(.push(from: nil, screen: "\(prefix)Profile", params: [:]), on: onA).get()
                    // The pop, on the other instance, which reads the session from the store.
                    let onB = try b.core.session(onA.id, token: token)
                    _ = try b.run(.pop(navigator: nil, to: nil, toRoot: false), on: onB).get()
                    if index % 2 == 0 { _ = b.wait { completion in b.core.delete(onB, precondition: nil, completion: completion) } }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        a.core.analytics.flush()
        b.core.analytics.flush()
        let screens = try figures(a)
        #expect(screens["\(prefix)Home"]?.shown == sessions)
        #expect(screens["\(prefix)Home"]?.sessions == sessions)
        #expect(screens["\(prefix)Profile"]?.shown == sessions)
        #expect(screens["\(prefix)Profile"]?.exits == ["pop": sessions])
        #expect(screens["\(prefix)Home"]?.exits == ["deleted": sessions / 2])
        // Home was the focus twice per session (before the push, after the pop) but for the deleted ones only.
        #expect(screens["\(prefix)Home"]?.timeOnScreen.samples == sessions + sessions / 2)
        #expect(screens["\(prefix)Profile"]?.timeOnScreen.samples == sessions)
        let ids = Set(try a.core.analytics.storage.analyticsPaths(updatedSince: nil).filter { path in
            path.steps.contains { $0.screen.hasPrefix(prefix) }
        }.map(\.session))
        #expect(ids.count == sessions)
    }
}
