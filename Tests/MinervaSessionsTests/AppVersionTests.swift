import Foundation
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import MinervaSQLite
import TestSupport
import Testing

/// Sessions across app versions: a session moves to a reloaded app on its next use when every
/// screen it shows is still there, as a mutation with an `appChanged` event; otherwise it stays
/// on its version with the screens it has, and only moves forward.
@Suite struct AppVersionTests {
    /// The tabs app with some screens changed (and the routes that use a removed one left out).
    static func tabs(_ change: (inout [String: AppDescription.Screen]) -> Void, root: AppDescription.Root? = nil) -> AppDescription {
        let tabs = AppDescription.tabs
        var screens = tabs.screens
        change(&screens)
        let routes = tabs.routes.filter { route in route.steps.allSatisfy { screens[$0.screen] != nil } }
        return AppDescription(name: tabs.name, scheme: tabs.scheme, root: root ?? tabs.root, screens: screens, routes: routes)
    }

    static let withInbox = tabs { $0["inbox"] = AppDescription.Screen(title: "Inbox") }
    static let withoutFollowers = tabs { $0["followers"] = nil }

    @Test func aSessionMovesToTheNewVersionOnItsNextUseWithAnAppChangedEvent() throws {
        let harness = try CoreHarness()
        let (session, token) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        let heard = Recorder()
        harness.core.observe(session) { _, _ in heard }
        #expect(throws: SessionError.self) { try harness.run(.push(from: nil, screen: "inbox", params: [:]), on: session).get() }

        try harness.core.replaceApp(Self.withInbox, version: "v2")
        let used = try harness.core.session(session.id, token: token)
        let state = try harness.state(of: used)
        #expect(state.appVersion == "v2" && state.version == 3)
        #expect(harness.log(of: session).events.last?.change == .appChanged(from: "test", to: "v2"))
        #expect(heard.received.last?.map(\.type) == ["appChanged"])
        #expect(try harness.run(.push(from: nil, screen: "inbox", params: [:]), on: used).get().events.map(\.version) == [4])
        // Used again on the same version: nothing more happens.
        #expect(try harness.state(of: try harness.core.session(session.id, token: token)).version == 4)
        #expect(harness.core.sessionsByAppVersion == ["v2": 1])
    }

    @Test func aSessionShowingAGoneScreenRunsItsOwnAppUntilItLeaves() throws {
        let harness = try CoreHarness()
        let (session, token) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        _ = try harness.run(.push(from: nil, screen: "followers", params: ["userId": "1"]), on: session).get()

        let withStats = Self.tabs {
            $0["followers"] = nil
            $0["stats"] = AppDescription.Screen(title: "Stats")
        }
        try harness.core.replaceApp(withStats, version: "v2")
        var state = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(state.appVersion == "test" && state.version == 3 && state.tree.app == .tabs)
        #expect(state.tree.unknownScreens.isEmpty)
        // Its own version's screens and routes work; the new version's do not.
        _ = try harness.run(.push(from: nil, screen: "followers", params: ["userId": "2"]), on: session).get()
        let newScreen = harness.run(.push(from: nil, screen: "stats", params: [:]), on: session)
        guard case .failure(let error) = newScreen else {
            Issue.record("a session on an earlier version should not show a screen only the new version has")
            return
        }
        #expect(error.category == .invalid)
        _ = try harness.run(.pop(navigator: nil, to: nil, toRoot: true), on: session).get()

        // Once nothing it shows stands in the way, its next use moves it, and that use sees it moved.
        state = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(state.appVersion == "v2" && state.version == 6 && state.tree.app == withStats)
        _ = try harness.run(.push(from: nil, screen: "stats", params: [:]), on: session).get()
    }

    @Test func anEarlierVersionShowsItsAppVersionAndCannotBringBackAGoneScreen() throws {
        let harness = try CoreHarness()
        let (session, token) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "followers", params: ["userId": "1"]), on: session).get()
        _ = try harness.run(.pop(navigator: nil, to: nil, toRoot: false), on: session).get()
        try harness.core.replaceApp(Self.withoutFollowers, version: "v2")
        let moved = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(moved.appVersion == "v2" && moved.version == 4)

        #expect(try harness.core.pastState(of: session, at: 3).appVersion == "test")
        #expect(try harness.core.pastState(of: session, at: 4).appVersion == "v2")
        let refused = harness.run(.restore(harness.core.restoreTarget(of: session, version: 2)), on: session)
        guard case .failure(let error) = refused else {
            Issue.record("a restore that brings back a gone screen should fail")
            return
        }
        #expect(error.category == .appVersionConflict && error.description.contains("(followers)"))
        // One that shows declared screens only comes back, on the version the session runs.
        _ = try harness.run(.restore(harness.core.restoreTarget(of: session, version: 1)), on: session).get()
        let state = try harness.state(of: session)
        #expect(state.appVersion == "v2" && state.tree.nodes.count == 3)
    }

    @Test func aMoveFromAVersionTheSessionNoLongerRunsChangesNothing() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        // Another process moved it on first: a move queued from the version it ran then is a no-op.
        let stale = try harness.run(.moveToApp(Self.withInbox, from: "v0", to: "v2"), on: session).get()
        #expect(stale.events.isEmpty)
        let moved = try harness.run(.moveToApp(Self.withInbox, from: "test", to: "v2"), on: session).get()
        #expect(moved.events.map(\.change) == [.appChanged(from: "test", to: "v2")])
    }

    @Test func aReloadThatTheSharedStoreCannotRecordKeepsTheAppInUse() throws {
        let shared = SharedStoreTests()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: shared.path + suffix) } }
        let storage = try SharedStoreTests.SharedSQLite(path: shared.path, bus: shared.bus)
        let harness = try CoreHarness(storage: storage)
        storage.store.setFailing(true)
        #expect(throws: SessionError.self) { try harness.core.replaceApp(Self.withInbox, version: "v2") }
        storage.store.setFailing(false)
        #expect(harness.core.appVersion == "test")
    }

    @Test func aScreenThatNowRequiresAParamItsNodeLacksHoldsTheSessionBack() throws {
        let harness = try CoreHarness()
        let (session, token) = try harness.create()
        _ = try harness.run(.push(from: nil, screen: "profile", params: ["userId": "1"]), on: session).get()
        let stricter = Self.tabs { $0["profile"]!.params = ["userId", "section"] }
        #expect(harness.core.obstaclesForTest(session, stricter).screens == ["n3 shows screen 'profile' without params it now requires: section"])
        try harness.core.replaceApp(stricter, version: "v2")
        #expect(try harness.state(of: try harness.core.session(session.id, token: token)).appVersion == "test")
    }

    @Test func aSessionWhoseTabsTheAppNoLongerHasGoesOnWithItsOwnAppAcrossARestart() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-versions-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var harness: CoreHarness? = try CoreHarness(storage: try SQLiteSessionStorage(path: path))
        let (session, token) = try harness!.create()
        let oneTab = Self.tabs({ _ in }, root: .tabs(Array(AppDescription.tabs.tabs!.prefix(1))))
        try harness!.core.replaceApp(oneTab, version: "v2")
        let state = try harness!.state(of: try harness!.core.session(session.id, token: token))
        #expect(state.appVersion == "test" && state.tree.app == .tabs)
        _ = try harness!.run(.selectTab("account"), on: session).get()
        // New sessions run the new app.
        let (fresh, _) = try harness!.create()
        #expect(try harness!.state(of: fresh).appVersion == "v2")
        harness = nil

        // A process that never ran the session's version reads its app from the store.
        let restarted = try CoreHarness(storage: try SQLiteSessionStorage(path: path))
        try restarted.core.replaceApp(oneTab, version: "v2")
        let read = try restarted.core.session(session.id, token: token)
        #expect(try restarted.state(of: read).tree.app == .tabs)
        _ = try restarted.run(.selectTab("home"), on: read).get()
        #expect(try restarted.state(of: read).appVersion == "test")
    }

    @Test func aRequestSeesItsSessionMovedOnlyOnceTheMoveIsStored() throws {
        let storage = try FaultyStorage()
        let harness = try CoreHarness(storage: storage)
        let (session, token) = try harness.create()
        try harness.core.replaceApp(Self.withInbox, version: "v2")
        // A store that does not answer in time: the request answers 503 instead of reading the
        // session from before the move.
        storage.hold()
        #expect {
            try harness.core.session(session.id, token: token)
        } throws: { ($0 as? SessionError)?.category == .unavailable(retryAfter: 1, outcomeUnknown: false) }
        storage.release()
        // Once stored, the first read is the moved session.
        let state = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(state.appVersion == "v2" && state.version == 2)
    }

    @Test func theMoveIsStoredAndARestartedCoreReadsItBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-versions-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var harness: CoreHarness? = try CoreHarness(storage: try SQLiteSessionStorage(path: path))
        let (session, token) = try harness!.create()
        try harness!.core.replaceApp(Self.withInbox, version: "v2")
        _ = try harness!.core.session(session.id, token: token)
        // The move is a mutation of its own; the request's work queues behind it.
        _ = try harness!.run(.push(from: nil, screen: "inbox", params: [:]), on: session).get()
        harness = nil

        let restarted = try CoreHarness(storage: try SQLiteSessionStorage(path: path))
        try restarted.core.replaceApp(Self.withInbox, version: "v2")
        let read = try restarted.core.session(session.id, token: token)
        let state = try restarted.state(of: read)
        #expect(state.appVersion == "v2" && state.version == 3 && state.tree.nodes.count == 4)
        #expect(restarted.log(of: read).events.map(\.type) == ["appChanged", "added"])
    }

    @Test func inASharedStoreVersionsOnlyMoveForward() throws {
        let shared = SharedStoreTests()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: shared.path + suffix) } }
        let a = try shared.core()
        let b = try shared.core()
        let (onA, token) = try a.create()
        try a.core.replaceApp(Self.withInbox, version: "v2")
        #expect(try a.settled(try a.core.session(onA.id, token: token)).appVersion == "v2")

        // B still runs the older app: it refuses the session rather than move it back.
        #expect {
            try b.core.session(onA.id, token: token)
        } throws: { ($0 as? SessionError)?.category == .appVersionConflict }
        // B's new sessions still work, and B reloading catches up.
        let (onB, tokenB) = try b.create()
        try b.core.replaceApp(Self.withInbox, version: "v2")
        #expect(try b.settled(try b.core.session(onA.id, token: token)).appVersion == "v2")
        #expect(try b.settled(try b.core.session(onB.id, token: tokenB)).appVersion == "v2")

        // Loading an earlier file again (a rollback) makes it the newest: sessions follow it.
        try a.core.replaceApp(.tabs, version: "test")
        #expect(try a.settled(try a.core.session(onB.id, token: tokenB)).appVersion == "test")
        #expect(throws: SessionError.self) { try b.core.session(onB.id, token: tokenB) }
    }
}

extension CoreHarness {
    /// The session's state once the work queued for it (a move to another app) is done: a
    /// mutation that changes nothing waits behind it.
    func settled(_ session: LiveSession) throws -> SessionState {
        _ = try run(.flags(set: [], clear: []), on: session).get()
        return try state(of: session)
    }
}

extension SessionCore {
    /// What keeps a session from running `app`.
    func obstaclesForTest(_ session: LiveSession, _ app: AppDescription) -> AppChangeObstacles {
        session.slot.withLock { $0.state.tree.obstacles(to: app) }
    }
}

/// App versions of an app of root flows: a session moves when its flow is still there with the
/// same base, and when the new launch rules choose another flow for its flags, the move's block
/// carries the switch after `appChanged`.
@Suite struct FlowAppVersionTests {
    static func app(launch: String) -> AppDescription {
        let text = #"""
            {"name": "flows",
             "flows": {"a": {"root": {"screen": "one"}}, "b": {"root": {"tabs": [{"id": "t", "screen": "two"}]}}},
             "launch": \#(launch),
             "screens": {"one": {}, "two": {}}}
            """#
        return try! AppDescription.parse(Array(text.utf8), source: "flows")
    }

    @Test func aMoveWhoseLaunchRulesChooseAnotherFlowSwitchesInTheSameBlock() throws {
        let harness = try CoreHarness(app: Self.app(launch: #"[{"unless": "x", "flow": "a"}, {"flow": "b"}]"#))
        let (session, token) = try harness.create()
        #expect(try harness.state(of: session).tree.flow == "a")
        try harness.core.replaceApp(Self.app(launch: #"[{"if": "x", "flow": "a"}, {"flow": "b"}]"#), version: "v2")
        let state = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(state.appVersion == "v2" && state.version == 2 && state.tree.flow == "b")
        #expect(harness.log(of: session).events.map(\.type) == ["appChanged", "removed", "flowChanged", "added", "tabSelected"])
    }

    @Test func aSessionWhoseFlowIsGoneStaysOnItsVersion() throws {
        let harness = try CoreHarness(app: Self.app(launch: #"[{"unless": "x", "flow": "a"}, {"flow": "b"}]"#))
        let (session, token) = try harness.create()
        let text = #"{"name": "flows", "flows": {"b": {"root": {"screen": "two"}}}, "launch": [{"flow": "b"}], "screens": {"one": {}, "two": {}}}"#
        try harness.core.replaceApp(try AppDescription.parse(Array(text.utf8), source: "v2"), version: "v2")
        let state = try harness.state(of: try harness.core.session(session.id, token: token))
        #expect(state.appVersion == "test" && state.tree.flow == "a")
    }
}
