import Foundation
import MinervaClient
import Testing

/// `changes()` against the real server: server-sent events, the long poll, resuming after the
/// server went away, a truncated log and the session's end.
@Suite struct ChangesTests {
    private static func events(_ changes: [SessionChange]) -> [Event] {
        changes.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test(arguments: [SessionChanges.Delivery.serverSentEvents, .longPoll])
    func changesDeliverEachBlockOfEvents(delivery: SessionChanges.Delivery) async throws {
        try await withTabsSession { session in
            let changes = Collected(await session.changes(delivery: delivery))
            try await session.navigate(to: "profile", params: ["userId": "42"])
            try await session.present("photo", params: ["photoId": "7"])
            try await session.pop(navigator: "tab:home", toRoot: true)
            let events = Self.events(try await changes.waitFor(count: 4))
            #expect(events.map(\.seq) == [1, 2, 3, 4])
            #expect(events.map(\.version) == [2, 3, 4, 4])
            #expect(events.map(\.isFinal) == [true, true, false, true])
            guard case .added(let added) = events[0], case .removed(let removed) = events[3] else {
                Issue.record("expected added, then removed: \(events)")
                return
            }
            #expect(added.screen == "profile" && added.presentation.kind == .push)
            #expect(removed.node == added.node && removed.reason == .pop)
        }
    }

    @Test func aClientThatRendersFromEventsTapsWithTheVersionItShows() async throws {
        try await withLiveServer { server in
            let other = try await MinervaSession.create(on: server.connection())
            let device = try await MinervaSession.resume(on: server.connection(), id: other.id, token: other.token)
            var changes = await device.changes().makeAsyncIterator()
            try await other.push("profile", params: ["userId": "1"])
            try await other.present("photo", params: ["photoId": "2"])
            var shown = 0
            while shown < 3, case .event(let event)? = try await changes.next() {
                if event.isFinal { shown = event.version }
            }
            #expect(await device.version == 3)
            let state = try await device.dismiss()
            #expect(state.version == 4 && state.focusedScreen == "profile")
        }
    }

    @Test @MainActor func anAppReadsChangesOnTheMainActor() async throws {
        try await withTabsSession { session in
            let changes = await session.changes()
            try await session.selectTab("account")
            for try await change in changes {
                guard case .event(let event) = change else { continue }
                #expect(event.seq == 1 && event.isFinal)
                break
            }
        }
    }

    @Test func changesStartAfterTheStateTheSessionHolds() async throws {
        try await withTabsSession { session in
            try await session.selectTab("account")
            let changes = Collected(await session.changes())
            try await session.selectTab("home")
            let events = Self.events(try await changes.waitFor(count: 1))
            #expect(events.map(\.seq) == [2])
        }
    }

    @Test func aProxyThatDropsTheStreamFallsBackToTheLongPoll() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection(middlewares: [DropsAcceptOfEventStreams()]))
            let changes = Collected(await session.changes())
            try await session.selectTab("account")
            try await session.selectTab("home")
            #expect(Self.events(try await changes.waitFor(count: 2)).map(\.seq) == [1, 2])
        }
    }

    @Test func theStreamResumesWithoutLossAfterTheServerRestarts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ["--store", "sqlite:\(folder.appendingPathComponent("sessions.sqlite").path)"]

        let first = try await LiveServer(store)
        defer { first.stop() }
        let session = try await MinervaSession.create(on: first.connection())
        let changes = Collected(await session.changes())
        try await session.selectTab("account")
        _ = try await changes.waitFor(count: 1)

        first.stop()  // ends the event stream; the follower tries again until a server answers
        let second = try await LiveServer(store, port: try #require(first.url.port))
        defer { second.stop() }
        try await session.selectTab("home")
        try await session.navigate(to: "profile", params: ["userId": "1"])
        #expect(Self.events(try await changes.waitFor(count: 3)).map(\.seq) == [1, 2, 3])
    }

    @Test(arguments: [SessionChanges.Delivery.serverSentEvents, .longPoll])
    func eventsTheServerNoLongerHoldsAreReplacedByTheState(delivery: SessionChanges.Delivery) async throws {
        try await withTabsSession(["--event-history", "1000"]) { session in
            for tab in (0..<1002).map({ $0.isMultiple(of: 2) ? "account" : "home" }) { try await session.selectTab(tab) }
            let changes = Collected(await session.changes(after: 0, delivery: delivery))
            let reloaded = try await changes.waitFor(count: 1)
            guard case .reloaded(let state) = reloaded[0] else {
                Issue.record("expected the state first: \(reloaded)")
                return
            }
            #expect(state.lastEvent == 1002 && state.version == 1003)
            try await session.selectTab("account")
            #expect(Self.events(Array(try await changes.waitFor(count: 2).dropFirst())).map(\.seq) == [1003])
        }
    }

    @Test(arguments: [SessionChanges.Delivery.serverSentEvents, .longPoll])
    func changesEndWithTheSession(delivery: SessionChanges.Delivery) async throws {
        try await withTabsSession { session in
            let changes = Collected(await session.changes(delivery: delivery))
            try await session.selectTab("account")
            _ = try await changes.waitFor(count: 1)
            try await session.delete()
            let end = try await changes.waitForEnd()
            #expect(throws: Never.self) { try end.get() }
        }
    }

    @Test func followingASessionThatIsGoneFailsWithUnauthorized() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let other = try await MinervaSession.resume(on: server.connection(), id: session.id, token: session.token)
            try await session.delete()
            let end = try await Collected(await other.changes()).waitForEnd()
            #expect(throws: MinervaError.self) { try end.get() }
        }
    }
}
