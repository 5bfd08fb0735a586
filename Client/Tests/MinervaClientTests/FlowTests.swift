import Foundation
import MinervaClient
import Testing

/// Root flows through the Swift client, on the live tests' `fit.json` (onboarding → sign-in →
/// main tabs): sessions created with flags, a link that waits for its flow, the switch as
/// events, params changed in place.
@Suite struct FlowTests {
    static let fit = LiveServer.tabsApp.deletingLastPathComponent().appendingPathComponent("fit.json")

    private static func events(_ changes: [SessionChange]) -> [Event] {
        changes.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test func aLinkWaitsForSignInAndComesWithTheSwitch() async throws {
        try await withLiveServer(["--app", Self.fit.path]) { server in
            let session = try await MinervaSession.create(on: server.connection(), deepLink: "/workouts/7", flags: ["onboarded"])
            var state = await session.state
            #expect(state.flow == "auth" && state.version == 1)
            let pending = try #require(state.pending)
            #expect(pending.operation == .deepLink && pending.url == "/workouts/7" && pending.flow == "main")

            let changes = Collected(await session.changes())
            state = try await session.finish(state.focus, status: .success)
            #expect(state.flow == "main" && state.pending == nil && state.flags == ["onboarded", "signedIn"])
            let block = Self.events(try await changes.waitFor(count: 9))
            guard case .flowChanged(let switched) = block.first(where: { if case .flowChanged = $0 { true } else { false } }) else {
                Issue.record("no flowChanged in \(block)")
                return
            }
            #expect(switched.from == "auth" && switched.to == "main" && switched.navigators == ["tab:today", "tab:me"])

            let workout = state.focus
            state = try await session.updateParams(of: workout, set: ["mode": "edit"])
            #expect(state.focus == workout && state.version == 3)
        }
    }

    @Test func aSessionStartsSignedIn() async throws {
        try await withLiveServer(["--app", Self.fit.path]) { server in
            let session = try await MinervaSession.create(on: server.connection(), deepLink: "/workouts/2", flags: ["onboarded", "signedIn"])
            let state = await session.state
            #expect(state.flow == "main" && state.tabs?.selected == "today" && state.pending == nil)
            await #expect(throws: MinervaError.self) { try await session.deepLink("/signup") }
        }
    }
}
