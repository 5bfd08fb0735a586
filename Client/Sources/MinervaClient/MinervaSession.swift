import Foundation

/// A session of Minerva Server, as one client (an app, a device) holds it.
///
/// Create one, or resume one with its id and token, then report taps with the navigation
/// operations: each answers the session's new state. Every change carries `If-Match` with the
/// version this client last saw (``version``), so a tap made on a screen that another device
/// has changed since fails with a ``MinervaError`` of status 412 instead of navigating twice;
/// and an `Idempotency-Key` of its own that its retries keep, so a change whose answer was lost
/// is applied once. Follow what others change with ``changes(after:delivery:)`` or ``states()``.
///
/// ```swift
/// let session = try await MinervaSession.create(on: MinervaConnection(serverURL: server))
/// let state = try await session.navigate(to: "profile", params: ["userId": "42"])
/// ```
public actor MinervaSession {
    /// The session's id (`s_` and 22 base64url characters).
    public nonisolated let id: String
    /// The session's bearer token; keep it to ``resume(on:id:token:)`` later.
    public nonisolated let token: String
    /// The server and how it is reached.
    public nonisolated let connection: MinervaConnection
    /// The generated client, with this session's token.
    nonisolated let client: Client

    /// The last state document this client received.
    public private(set) var state: SessionState
    /// The session version this client last saw: its state's, that of its own latest list `PUT`
    /// (which changes the version but answers no state), or that of the last whole block of
    /// events ``changes(after:delivery:)`` delivered. Changes send it as `If-Match`.
    public private(set) var version: Int

    private init(id: String, token: String, connection: MinervaConnection, state: SessionState) {
        self.id = id
        self.token = token
        self.connection = connection
        self.client = connection.client(token: token)
        self.state = state
        self.version = state.version
    }

    /// Creates a session on the server.
    /// - Parameters:
    ///   - connection: the server.
    ///   - deepLink: a deep link (`/users/42` or `demo://users/42`) to build the first state with:
    ///     applied in the session's flow, or kept pending for a later one.
    ///   - flags: the first flags (a returning user's `signedIn`): the session starts in the flow
    ///     the app's launch rules choose for them.
    ///   - layout: `stack` (the default) or `split`, for an app with a single root.
    ///   - user: the id of the person the session is for: experiments by `user` give one person
    ///     one variant on every device (``SessionState/experiments``).
    /// - Returns: the session, holding its first state.
    /// - Throws: ``MinervaError``: 404 when no route matches `deepLink`, 422 for a layout the
    ///   app cannot take, 409 when the link cannot be followed (or opens in an earlier flow), 503
    ///   at the server's session limit; ``UnsupportedValue`` for a layout the server does not take.
    public static func create(
        on connection: MinervaConnection, deepLink: String? = nil, flags: [String] = [], layout: Layout? = nil, user: String? = nil
    ) async throws -> MinervaSession {
        let client = connection.client()
        let body = Components.Schemas.CreateSessionRequest(
            layout: try layout.map { try $0.requestValue(for: "layout") }, flags: flags.isEmpty ? nil : flags, deepLink: deepLink, user: user)
        let key = UUID().uuidString
        let created = try await connection.retryPolicy.run {
            try await client.createSession(headers: .init(idempotencyKey: key), body: .json(body)).created.body.json
        }
        return MinervaSession(id: created.value1.id, token: created.value2.token, connection: connection, state: created.value1)
    }

    /// Resumes a session created earlier (by this app before it was closed, or by another
    /// client that shared its id and token), reading its current state.
    /// - Parameters:
    ///   - connection: the server.
    ///   - id: the session's id.
    ///   - token: the session's bearer token.
    /// - Returns: the session, holding its current state.
    /// - Throws: ``MinervaError`` 401 when the token is wrong or the session is gone.
    public static func resume(on connection: MinervaConnection, id: String, token: String) async throws -> MinervaSession {
        let client = connection.client(token: token)
        let state = try await connection.retryPolicy.run {
            try await client.getSession(path: .init(id: id)).ok.body.json.value1
        }
        return MinervaSession(id: id, token: token, connection: connection, state: state)
    }

    /// Resumes a session with a state kept from before, without reading it: for an app launched
    /// while the server cannot be reached (a ``SavedQueue`` keeps the state it last confirmed).
    /// - Parameters:
    ///   - connection: the server.
    ///   - id: the session's id.
    ///   - token: the session's bearer token.
    ///   - state: the session's state as the app last knew it.
    /// - Returns: the session, holding `state` until it reads a newer one.
    public static func resume(on connection: MinervaConnection, id: String, token: String, knownState state: SessionState) -> MinervaSession {
        MinervaSession(id: id, token: token, connection: connection, state: state)
    }

    /// Reads the session's current state.
    /// - Returns: the state.
    /// - Throws: ``MinervaError`` 401 when the session is gone.
    @discardableResult
    public func refresh() async throws -> SessionState {
        let state = try await connection.retryPolicy.run {
            try await client.getSession(path: .init(id: id)).ok.body.json.value1
        }
        received(state)
        return state
    }

    /// The deep link that rebuilds what the session shows now (`GET …/link`).
    /// - Returns: the link in path form (`/users/42`), or nil when no route describes the state.
    /// - Throws: ``MinervaError`` 401 when the session is gone.
    public func link() async throws -> String? {
        try await connection.retryPolicy.run {
            try await client.getLink(path: .init(id: id)).ok.body.json.url
        }
    }

    /// Deletes the session; its token stops working and its followers end.
    /// - Throws: ``MinervaError`` 401 when the session is already gone.
    public func delete() async throws {
        _ = try await connection.retryPolicy.run {
            try await client.deleteSession(path: .init(id: id)).noContent
        }
    }

    /// Issues an extra token for someone else to follow the session: `read` follows it (a change
    /// with it is ``MinervaError`` 403), `write` changes it too. Only the owner token (the one
    /// ``create(on:deepLink:flags:layout:user:)`` answered) may.
    /// - Returns: the token's id and the secret to hand over (``resume(on:id:token:)``); nothing
    ///   shows the secret again.
    /// - Throws: ``MinervaError`` 403 with another token, 409 when the session holds 16, 422 for a
    ///   label over 64 characters.
    public func issueToken(scope: TokenScope, label: String? = nil) async throws -> (token: SessionToken, secret: String) {
        let issued = try await client.issueToken(path: .init(id: id), body: .json(.init(scope: scope.rawValue, label: label))).created.body.json
        return (SessionToken(issued.value1), issued.value2.token)
    }

    /// The session's extra tokens, oldest first (owner token only).
    /// - Throws: ``MinervaError`` 403 with another token.
    public func tokens() async throws -> [SessionToken] {
        try await connection.retryPolicy.run {
            try await client.listTokens(path: .init(id: id)).ok.body.json.tokens.map(SessionToken.init)
        }
    }

    /// Revokes an extra token: every later request with it is 401, and what it follows ends.
    /// - Throws: ``MinervaError`` 403 with another token, 404 for a token the session does not have.
    public func revokeToken(_ tokenID: String) async throws {
        _ = try await client.revokeToken(path: .init(id: id, token: tokenID)).noContent
    }

    /// What this session's token may do: an app that was handed a token learns whether to offer changes.
    public func access() async throws -> SessionAccess {
        let access = try await connection.retryPolicy.run { try await client.getAccess(path: .init(id: id)).ok.body.json }
        guard let tokenID = access.token, access.scope != "owner" else { return .owner }
        return .token(id: tokenID, scope: TokenScope(rawValue: access.scope))
    }

    /// Keeps `state` when it is at least as new as the version this client saw.
    func received(_ state: SessionState) {
        guard state.version >= version else { return }
        self.state = state
        version = state.version
    }

    /// Records a version that this client's own change made without answering a state.
    func saw(version newVersion: Int) {
        version = max(version, newVersion)
    }

    /// The `If-Match` value that names the version this client last saw.
    var ifMatch: String { "\"\(version)\"" }
}
