import MinervaClient
import Testing

/// `states()` against the real server: the state documents another client's changes make.
@Suite struct StatesTests {
    @Test func statesDeliverWhatAnotherClientChanged() async throws {
        try await withLiveServer { server in
            let phone = try await MinervaSession.create(on: server.connection())
            let tablet = try await MinervaSession.resume(on: server.connection(), id: phone.id, token: phone.token)
            let states = Collected(tablet.states())
            try await phone.navigate(to: "profile", params: ["userId": "42"])
            let first = try await states.waitFor(count: 1)
            #expect(first.map(\.version) == [2] && first[0].focusedScreen == "profile")
            try await phone.selectTab("account")
            #expect(try await states.waitFor(count: 2).map(\.version) == [2, 3])
            // The tablet saw version 3, so its next tap names it in If-Match and goes through.
            #expect(await tablet.version == 3)
            #expect(try await tablet.selectTab("home").version == 4)
        }
    }

    @Test func statesEndWithTheSession() async throws {
        try await withLiveServer { server in
            let phone = try await MinervaSession.create(on: server.connection())
            let tablet = try await MinervaSession.resume(on: server.connection(), id: phone.id, token: phone.token)
            let states = Collected(tablet.states())
            try await phone.selectTab("account")
            _ = try await states.waitFor(count: 1)
            try await phone.delete()
            let end = try await states.waitForEnd()
            #expect(throws: Never.self) { try end.get() }
        }
    }
}
