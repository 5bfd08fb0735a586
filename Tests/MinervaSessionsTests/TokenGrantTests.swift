import MinervaModel
@testable import MinervaSessions
import Testing

/// Extra tokens through the core: what each opens, and a revocation that holds at once.
@Suite struct TokenGrantTests {
    @Test(arguments: [false, true])
    func anExtraTokenOpensItsSessionWithItsScopeUntilRevoked(durable: Bool) throws {
        let harness = try CoreHarness(storage: durable ? try FaultyStorage() : nil)
        let (session, owner) = try harness.create()
        let (other, _) = try harness.create()
        #expect(try harness.core.authorize(session.id, token: owner).access == .owner)
        let read = try harness.core.issueToken(for: session, scope: .read, label: "support")
        let write = try harness.core.issueToken(for: session, scope: .write, label: nil)
        #expect(read.secret.hasPrefix("mt_") && read.secret.count == 46 && read.grant.id.hasPrefix("k_") && read.grant.id.count == 13)
        #expect(read.grant.hash == Token.hash(read.secret) && !read.grant.hash.isEmpty)
        #expect(try harness.core.authorize(session.id, token: read.secret).access == .grant(read.grant))
        #expect(try harness.core.authorize(session.id, token: write.secret).access == .grant(write.grant))
        #expect(read.grant.allows(.read) && !read.grant.allows(.write) && write.grant.allows(.write) && !write.grant.allows(.owner))
        // Listed oldest first (ties by id), as every store lists them.
        #expect(try harness.core.tokens(of: session) == [read.grant, write.grant].sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) })
        // Another session's token, a made-up one and the owner's token of another session open nothing.
        #expect(throws: SessionError.self) { try harness.core.authorize(other.id, token: read.secret) }
        #expect(throws: SessionError.self) { try harness.core.authorize(session.id, token: "mt_" + String(repeating: "A", count: 43)) }
        // A revocation ends what the token follows, and the token opens nothing from then on.
        let followed = Recorder(grant: read.grant.id)
        let owners = Recorder()
        harness.core.observe(session) { _, _ in followed }
        harness.core.observe(session) { _, _ in owners }
        try harness.core.revokeToken(read.grant.id, of: session)
        #expect(followed.sawEnd && !owners.sawEnd)
        #expect(throws: SessionError.self) { try harness.core.authorize(session.id, token: read.secret) }
        #expect(throws: SessionError.self) { try harness.core.revokeToken(read.grant.id, of: session) }
        #expect(try harness.core.tokens(of: session) == [write.grant])
    }

    @Test func aSessionHoldsAtMostSixteenExtraTokens() throws {
        let harness = try CoreHarness()
        let (session, _) = try harness.create()
        for _ in 0..<TokenGrant.maximumPerSession { _ = try harness.core.issueToken(for: session, scope: .read, label: nil) }
        let error = #expect(throws: SessionError.self) { try harness.core.issueToken(for: session, scope: .read, label: nil) }
        #expect(error?.category == .conflict)
        #expect(try harness.core.tokens(of: session).count == TokenGrant.maximumPerSession)
    }
}
