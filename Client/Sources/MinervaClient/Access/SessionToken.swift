/// An extra token of a session, as its owner lists it (``MinervaSession/tokens()``): its id,
/// its scope, its label; not its secret, which only ``MinervaSession/issueToken(scope:label:)`` shows.
public struct SessionToken: Hashable, Sendable {
    /// `k_` and 11 characters: what ``MinervaSession/revokeToken(_:)`` takes.
    public var id: String
    /// `read` (follow only) or `write` (change too).
    public var scope: TokenScope
    /// Who or what it is for, as the owner said.
    public var label: String?
    /// When it was issued, in milliseconds since 1970.
    public var createdAt: Int

    /// A token as the server lists it (tests and previews make them).
    public init(id: String, scope: TokenScope, label: String? = nil, createdAt: Int) {
        self.id = id
        self.scope = scope
        self.label = label
        self.createdAt = createdAt
    }

    init(_ info: Components.Schemas.TokenInfo) {
        self.init(id: info.id, scope: info.scope, label: info.label, createdAt: info.createdAt)
    }
}

/// What the token a session was resumed with may do there (``MinervaSession/access()``).
public enum SessionAccess: Hashable, Sendable {
    /// The token the creation answered: everything, tokens included.
    case owner
    /// An extra token, with its id and scope.
    case token(id: String, scope: TokenScope)
}
