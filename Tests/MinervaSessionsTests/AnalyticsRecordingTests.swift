import Foundation
import Locking
import Logging
import MinervaCoordinator
import MinervaJSON
import MinervaSQLite
@testable import MinervaSessions
import Testing

/// Analytics recorded by the session core from what it commits, in memory and in SQLite.
@Suite struct AnalyticsRecordingTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        let seconds = Locked<Double>(1_800_000_000)
        var now: @Sendable () -> Double { { [seconds] in seconds.withLock { $0 } } }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    func harness(_ clock: TestClock, storage: (any SessionStorage & AnalyticsStorage)? = nil) throws -> CoreHarness {
        try CoreHarness(storage: storage, configuration: SessionConfiguration(sessionTTL: 3600, rateLimit: 0, now: clock.now))
    }

    /// Home 10 s, profile 20 s then popped, a login flow finished after 5 s, then deleted; a
    /// second session left on home to expire.
    func drive(_ harness: CoreHarness, _ clock: TestClock) throws {
        let (session, _) = try harness.create()
        clock.advance(10)
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        clock.advance(20)
        _ = try harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        _ = try harness.run(.present(from: nil, screen: "login", params: [:], style: nil, embedInNavigation: nil), on: session).get()
        clock.advance(5)
        let login = try harness.state(of: session).tree.focus.description
        _ = try harness.run(.finish(node: login, status: "success", value: nil), on: session).get()
        _ = harness.wait { completion in harness.core.delete(session, precondition: nil, completion: completion) }
        _ = try harness.create()
        clock.advance(7200)
        harness.core.expireIdleSessions()
        harness.core.analytics.flush()
    }

    func screens(_ harness: CoreHarness) throws -> [String: ScreenFigures] {
        let figures = AnalyticsReports.screens(try harness.core.analytics.storage.analyticsCounts(from: nil, until: nil))
        return Dictionary(uniqueKeysWithValues: figures.map { ($0.screen, $0) })
    }

    func check(_ harness: CoreHarness) throws {
        let screens = try screens(harness)
        #expect(screens["home"]?.shown == 2)
        #expect(screens["home"]?.sessions == 2)
        #expect(screens["home"]?.exits == ["deleted": 1, "expired": 1])
        #expect(screens["profile"]?.exits == ["pop": 1])
        #expect(screens["login"]?.exits == ["finish": 1])
        #expect(abs((screens["profile"]?.timeOnScreen.median ?? 0) - 20) < 0.5)
        let flows = AnalyticsReports.flows(try harness.core.analytics.storage.analyticsCounts(from: nil, until: nil))
        #expect(flows.map(\.screen) == ["login"])
        #expect(flows.first?.success == 1)
        #expect(abs((flows.first?.timeToFinish.median ?? 0) - 5) < 0.15)
        let funnel = AnalyticsFunnel(
            screens: ["home", "profile"], within: nil, from: nil, until: nil, paths: try harness.core.analytics.storage.analyticsPaths(updatedSince: nil))
        #expect(funnel.steps.map(\.sessions) == [2, 1])
        #expect(funnel.steps[0].exits == [.init(screen: "home", reason: "expired"): 1])
    }

    @Test func recordsEveryKindOfChangeInMemory() throws {
        let clock = TestClock()
        let harness = try harness(clock)
        try drive(harness, clock)
        try check(harness)
    }

    @Test func sqliteKeepsTheFiguresAcrossARestart() throws {
        let clock = TestClock()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-analytics-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try drive(try harness(clock, storage: try SQLiteSessionStorage(path: path)), clock)
        try check(try harness(clock, storage: try SQLiteSessionStorage(path: path)))
    }

    @Test func recordingOffRecordsNothing() throws {
        let clock = TestClock()
        let harness = try harness(clock)
        harness.core.analytics.isEnabled = false
        try drive(harness, clock)
        #expect(try harness.core.analytics.storage.analyticsCounts(from: nil, until: nil).isEmpty)
    }

    @Test func pathsAreForgottenAfterTheirLifetime() throws {
        let clock = TestClock()
        let harness = try harness(clock)
        harness.core.analytics.pathLifetime = 3600
        _ = try harness.create()
        harness.core.analytics.flush()
        #expect(try harness.core.analytics.storage.analyticsPaths(updatedSince: nil).count == 1)
        clock.advance(2 * 86_400)
        harness.core.expireIdleSessions()
        harness.core.analytics.flush()
        // The expiry's own entry comes after the pruning: the next sweep forgets it.
        clock.advance(2 * 86_400)
        harness.core.expireIdleSessions()
        #expect(try harness.core.analytics.storage.analyticsPaths(updatedSince: nil).isEmpty)
        #expect(try screens(harness)["home"]?.shown == 1)
    }

    @Test func aStoreFaultIsCountedNotThrown() throws {
        let recorder = AnalyticsRecorder(storage: BrokenAnalytics(), clock: { 0 }, logger: Logger(label: "test"))
        recorder.recordEnd(of: "s", version: 1, reason: "deleted", at: 1)
        recorder.flush()
    }

    @Test func aReportsFlushWaitsForASlowStoreOnlySoLong() throws {
        let recorder = AnalyticsRecorder(storage: SlowAnalytics(), clock: { 0 }, logger: Logger(label: "test"))
        recorder.recordEnd(of: "s", version: 1, reason: "deleted", at: 1)
        let started = ContinuousClock.now
        recorder.flush(waitingAtMost: .milliseconds(100))
        #expect(ContinuousClock.now - started < .seconds(2), "the flush waited for the whole slow write")
    }

    /// A store that takes 3 s to record.
    struct SlowAnalytics: AnalyticsStorage {
        func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] {
            Thread.sleep(forTimeInterval: 3)
            return []
        }
        func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] { [] }
        func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] { [] }
        func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int { 0 }
    }

    /// A store whose every call fails.
    struct BrokenAnalytics: AnalyticsStorage {
        func recordAnalytics(_ entries: [AnalyticsEntry], updated: Double) throws(StorageError) -> [AnalyticsSample] { throw StorageError("disk full") }
        func analyticsCounts(from: Int?, until: Int?) throws(StorageError) -> [AnalyticsCount] { throw StorageError("disk full") }
        func analyticsPaths(updatedSince: Double?) throws(StorageError) -> [AnalyticsPath] { throw StorageError("disk full") }
        func pruneAnalyticsPaths(updatedBefore before: Double) throws(StorageError) -> Int { throw StorageError("disk full") }
    }
}

/// The entries the recorder makes of a committed block.
@Suite struct AnalyticsBlockEntryTests {
    @Test func everyEntryOfABlockCarriesItsVersionExitsBeforeTheNewFocus() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        let before = try harness.state(of: session)
        let pop = try harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        let after = try harness.state(of: session)
        let entries = AnalyticsRecorder.entries(
            for: pop.events, from: before, to: after, session: session.id, at: pop.events.first!.at, version: after.version)
        #expect(entries.map(\.version) == [after.version, after.version])
        #expect(entries.map(\.fact) == [.exit(node: "n3", screen: "profile", reason: "pop"), .focus(node: "n1", screen: "home")])
    }
}
