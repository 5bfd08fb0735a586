import MinervaClient
import Testing

/// Extra tokens: a read-only follower mirrors the session and cannot change it; the owner lists
/// and revokes.
@Suite struct TokenTests {
    @Test func aReadTokenFollowsTheSessionAndItsChangesAre403UntilRevoked() async throws {
        try await withLiveServer { server in
            let owner = try await MinervaSession.create(on: server.connection())
            let (token, secret) = try await owner.issueToken(scope: .read, label: "support")
            #expect(token.scope == .read && token.label == "support" && secret.hasPrefix("mt_"))
            #expect(try await owner.access() == .owner)
            let follower = try await MinervaSession.resume(on: server.connection(), id: owner.id, token: secret)
            #expect(try await follower.access() == .token(id: token.id, scope: .read))
            var mirror = follower.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            let changed = try await owner.navigate(to: "profile", params: ["userId": "1"])
            #expect(try await mirror.next() == changed)
            let refused = await #expect(throws: MinervaError.self) { try await follower.navigate(to: "profile", params: ["userId": "2"]) }
            #expect(refused?.status == 403)
            #expect(try await owner.refresh().version == changed.version)
            let notOwner = await #expect(throws: MinervaError.self) { try await follower.tokens() }
            #expect(notOwner?.status == 403)
            #expect(try await owner.tokens() == [token])
            try await owner.revokeToken(token.id)
            let revoked = await #expect(throws: MinervaError.self) { try await follower.refresh() }
            #expect(revoked?.status == 401)
            #expect(try await owner.tokens().isEmpty)
        }
    }
}
