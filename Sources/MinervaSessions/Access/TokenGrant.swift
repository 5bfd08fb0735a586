/// What an extra token of a session may do.
public enum TokenScope: String, Sendable, CaseIterable {
    /// The state, the change log and its stream, past versions, lists, the link.
    case read
    /// That and every change.
    case write
}

/// What a request asks of its bearer token.
public enum AccessNeed: Sendable {
    /// To read the session.
    case read
    /// To change it.
    case write
    /// To manage its tokens or delete it: the owner token only.
    case owner
}

/// An extra bearer token a session's owner issued (`POST …/tokens`): its id, its scope, and the
/// SHA-256 of its secret (the secret itself is shown once, in the answer that issues it).
/// Immutable, and held by reference: a request carries one in its exchange, which is copied
/// often, and most requests (the owner's) carry none — one word either way.
public final class TokenGrant: Sendable, Equatable {
    /// What every grant's secret starts with, so that a token of another kind is told apart
    /// without a lookup in the store.
    public static let secretPrefix = "mt_"
    /// The most extra tokens a session holds.
    public static let maximumPerSession = 16
    /// The longest label, in characters.
    public static let maximumLabelLength = 64
    /// The longest label, in bytes of UTF-8.
    public static let maximumLabelBytes = 256

    /// `k_` and 11 characters: what the owner lists and revokes it by.
    public let id: String
    /// What it may do.
    public let scope: TokenScope
    /// The SHA-256 of its secret.
    public let hash: [UInt8]
    /// Who or what it is for, as the owner said.
    public let label: String?
    /// When it was issued, in milliseconds since 1970.
    public let createdAt: Int

    /// A grant as a store keeps it.
    public init(id: String, scope: TokenScope, hash: [UInt8], label: String?, createdAt: Int) {
        self.id = id
        self.scope = scope
        self.hash = hash
        self.label = label
        self.createdAt = createdAt
    }

    /// Two grants are the same when every member is.
    public static func == (lhs: TokenGrant, rhs: TokenGrant) -> Bool {
        lhs.id == rhs.id && lhs.scope == rhs.scope && lhs.hash == rhs.hash && lhs.label == rhs.label && lhs.createdAt == rhs.createdAt
    }

    /// A new grant and its secret (`mt_` and 43 characters of 32 random bytes).
    public static func issue(scope: TokenScope, label: String?, now: Double) -> (grant: TokenGrant, secret: String) {
        let secret = secretPrefix + Token.random(bytes: 32)
        let grant = TokenGrant(
            id: "k_" + Token.random(bytes: 8), scope: scope, hash: Token.hash(secret), label: label, createdAt: Int((now * 1000).rounded(.down)))
        return (grant, secret)
    }

    /// Whether a bearer token is a grant's secret by its form (``secretPrefix``): what every
    /// request checks before anything else, so by three bytes rather than by `hasPrefix`.
    public static func isSecret(_ token: String) -> Bool {
        var bytes = token.utf8.makeIterator()
        return bytes.next() == UInt8(ascii: "m") && bytes.next() == UInt8(ascii: "t") && bytes.next() == UInt8(ascii: "_")
    }

    /// Whether the grant does what a request needs.
    public func allows(_ need: AccessNeed) -> Bool {
        switch need {
        case .read: true
        case .write: scope == .write
        case .owner: false
        }
    }
}

/// What the token of a request on a session may do: everything (the owner's), or a grant's scope.
public enum SessionAccess: Sendable, Equatable {
    /// The token the creation answered.
    case owner
    /// An extra token.
    case grant(TokenGrant)
}

/// A session and what the request's token may do on it (``SessionCore/authorize(_:token:checkingStore:)``).
public struct AuthorizedSession: Sendable {
    /// The session.
    public let session: LiveSession
    /// The token's access.
    public let access: SessionAccess
}

/// What became of a request to keep a new grant.
public enum GrantAddition: Sendable, Equatable {
    /// Kept.
    case added
    /// The session is not stored (deleted or expired).
    case noSession
    /// The session holds ``TokenGrant/maximumPerSession`` already.
    case full
}
