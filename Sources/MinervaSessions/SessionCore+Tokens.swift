public import MinervaModel
import MinervaJSON

extension SessionCore {
    /// The session with this id and what `token` may do on it: the owner's token (the creation's),
    /// or an extra token the owner issued, which is read from the store on every request (a
    /// revocation holds at once on every process). A token of neither kind is `unauthorized`.
    /// - Parameter checkingStore: as ``session(_:token:checkingStore:)``.
    public func authorize(_ id: String, token: String, checkingStore: Bool = true) throws(SessionError) -> AuthorizedSession {
        let grant: TokenGrant
        do throws(SessionError) {
            // The owner's token first: most requests carry it, and then pay nothing for extra tokens.
            return AuthorizedSession(session: try session(id, token: token, checkingStore: checkingStore), access: .owner)
        } catch {
            guard error.category == .unauthorized, TokenGrant.isSecret(token), let found = try self.grant(of: id, token: token) else { throw error }
            grant = found
        }
        guard let session = try find(id, token: nil, checkingStore: checkingStore) else { throw .unauthorized }
        return AuthorizedSession(session: try opened(session), access: .grant(grant))
    }

    /// Issues an extra token of the session (the caller checked that the owner asks).
    /// - Returns: the grant and its secret, which nothing keeps.
    /// - Throws: `conflict` when the session holds ``TokenGrant/maximumPerSession`` already,
    ///   `unauthorized` when it is gone, `unavailable` when the store cannot be written.
    public func issueToken(for session: LiveSession, scope: TokenScope, label: String?) throws(SessionError) -> (grant: TokenGrant, secret: String) {
        let issued = TokenGrant.issue(scope: scope, label: label, now: configuration.now())
        let addition: GrantAddition
        do {
            addition = try store.addGrant(issued.grant, to: session.id, limit: TokenGrant.maximumPerSession)
        } catch {
            logger.error("could not keep a token of session \(session.id): \(error)")
            throw error.outcomeUnknown ? .outcomeUnknown("the new token") : .notStored("the new token")
        }
        switch addition {
        case .added: return issued
        case .noSession: throw .unauthorized
        case .full:
            throw .conflict(
                "the session holds \(TokenGrant.maximumPerSession) extra tokens, the most it may; revoke one (DELETE …/tokens/{token}) first")
        }
    }

    /// The session's extra tokens, oldest first.
    public func tokens(of session: LiveSession) throws(SessionError) -> [TokenGrant] {
        do {
            return try store.grants(of: session.id)
        } catch {
            logger.error("could not read the tokens of session \(session.id): \(error)")
            throw .storeUnreadable
        }
    }

    /// Revokes one of the session's extra tokens, and ends what it follows here.
    /// - Throws: `notFound` for a token the session does not have.
    public func revokeToken(_ grantID: String, of session: LiveSession) throws(SessionError) {
        let revoked: Bool
        do {
            revoked = try store.revokeGrant(grantID, of: session.id)
        } catch {
            logger.error("could not revoke a token of session \(session.id): \(error)")
            throw error.outcomeUnknown ? .outcomeUnknown("the revocation") : .notStored("the revocation")
        }
        guard revoked else { throw .notFound("no token \(Excerpt(grantID)) in this session; GET …/tokens lists those it has") }
        hub.end(session.id, grant: grantID)
    }

    /// Ends the streams and long polls here that follow with an extra token revoked since (on
    /// another instance, or while they subscribed), reading the tokens of the sessions they follow
    /// from the store: run at every resync of a shared store (at least once a second) and after a
    /// subscriber with an extra token subscribed.
    /// - Parameter session: only this session's, or every session's when `nil`.
    func endRevokedFollowers(of session: String? = nil) {
        let followed = hub.grantFollowers.filter { session == nil || $0.key == session }
        for (id, grants) in followed {
            guard let kept = try? Set(store.grants(of: id).map(\.id)) else { continue }
            for grant in grants where !kept.contains(grant) { hub.end(id, grant: grant) }
        }
    }

    /// The extra token of the session that `token` is, read from the store.
    private func grant(of id: String, token: String) throws(SessionError) -> TokenGrant? {
        guard id.utf8.count <= 64 else { return nil }
        do {
            return try store.grant(of: id, hash: Token.hash(token))
        } catch {
            logger.error("could not read the tokens of session \(id): \(error)")
            throw .storeUnreadable
        }
    }
}
