import MinervaClient
import Testing

/// A change whose answer is lost is sent again with its own `Idempotency-Key`, and the real
/// server applies it once.
@Suite struct IdempotencyTests {
    @Test func aRetriedChangeIsAppliedOnce() async throws {
        try await withLiveServer { server in
            let network = LosesFirstAnswer(operationID: "navigate")
            let session = try await MinervaSession.create(on: server.connection(middlewares: [network]))
            let state = try await session.navigate(to: "profile", params: ["userId": "42"])
            #expect(state.version == 2 && state.stackIDs(of: "tab:home")?.count == 2)
            let attempts = network.seen
            #expect(attempts.count == 2)
            #expect(attempts[0].idempotencyKey != nil && attempts[0].idempotencyKey == attempts[1].idempotencyKey)
            #expect(!attempts[0].replayed && attempts[1].replayed)
            #expect(try await session.refresh().lastEvent == 1)
        }
    }

    @Test func everyChangeHasAKeyOfItsOwn() async throws {
        try await withLiveServer { server in
            let network = LosesFirstAnswer(operationID: "selectTab")
            let session = try await MinervaSession.create(on: server.connection(middlewares: [network]))
            try await session.selectTab("account")
            try await session.selectTab("home")
            let keys = network.seen.map(\.idempotencyKey)
            #expect(keys.count == 3 && keys[0] == keys[1] && keys[1] != keys[2])
            #expect(await session.version == 3)
        }
    }
}
