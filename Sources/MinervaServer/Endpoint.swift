import MicroHTTP
import MinervaSessions

/// One endpoint of the API, a row of ``all`` (`Endpoints.swift`): its path as openapi.yaml writes
/// it, the methods it answers, its name in metrics, whether answering it may use the session
/// store, and its handler. A row is shared, not copied: a route holds a reference to it.
final class Endpoint: Sendable {
    /// Answers a path of the server's own, once its method is admitted, from the request, its
    /// exchange and the ids the path names.
    typealias ServerHandler = @Sendable (MinervaAPI, HTTPRequest, Exchange, PathParameters) throws(APIError) -> HTTPReply
    /// Answers a path under `/v1/sessions/{id}`, once its method is admitted, with the session
    /// the path's id and the bearer token name.
    typealias SessionHandler = @Sendable (MinervaAPI, LiveSession, HTTPRequest, Exchange, PathParameters) throws(APIError) -> HTTPReply

    /// How the endpoint is answered. A handler gets the request and its exchange as they are,
    /// not copied into a bundle: that would retain and release their fields on every request.
    enum Handler: Sendable {
        /// Without a session.
        case server(ServerHandler)
        /// With the session the path names.
        case session(SessionHandler)
    }

    /// The path, its ids as placeholders in braces.
    let pattern: PathPattern
    /// The methods it answers, in the order `Allow` lists them.
    let methods: [String]
    /// Its `route` in metrics: a fixed set of names, never an id.
    let metricName: String
    /// Whether answering may read or write the session store (on a shared store, the request
    /// is then answered by a store thread, within the store's deadline).
    let usesStore: Bool
    /// Whether it answers only with the admin token, and is unknown (`404`) when the server has none.
    let isAdmin: Bool
    /// Whether its methods other than `GET` and `HEAD` answer only through
    /// ``MinervaAPI/mutate(_:_:_:command:answersOtherThanState:answer:)``: the session is then not
    /// checked against a store other instances write before use, as the change's write is checked
    /// against the stored session, and an answer made without a write reads the store first.
    let changesOnly: Bool
    /// The methods only the session's owner token may use (tokens, deleting the session); of
    /// the others, `GET` and `HEAD` need a token that reads and the rest one that writes.
    let ownerMethods: [String]
    /// What answers it.
    let handler: Handler

    /// A row; the table makes its rows with the factories below, one for each kind of endpoint.
    private init(
        pattern: StaticString, methods: [String], metricName: String, usesStore: Bool, isAdmin: Bool, changesOnly: Bool = false,
        ownerMethods: [String] = [], handler: Handler
    ) {
        self.pattern = PathPattern(pattern)
        self.methods = methods
        self.metricName = metricName
        self.usesStore = usesStore
        self.isAdmin = isAdmin
        self.changesOnly = changesOnly
        self.ownerMethods = ownerMethods
        self.handler = handler
    }

    /// A path of the server's own.
    static func server(
        _ pattern: StaticString, _ methods: [String], metric: String, usesStore: Bool, _ handle: @escaping ServerHandler
    ) -> Endpoint {
        Endpoint(pattern: pattern, methods: methods, metricName: metric, usesStore: usesStore, isAdmin: false, handler: .server(handle))
    }

    /// An admin report: answered only with the admin token; it reads the store, within the longer
    /// deadline of reports.
    static func admin(_ pattern: StaticString, _ methods: [String], metric: String, _ handle: @escaping ServerHandler) -> Endpoint {
        Endpoint(pattern: pattern, methods: methods, metricName: metric, usesStore: true, isAdmin: true, handler: .server(handle))
    }

    /// A path of one session (`/v1/sessions/{id}…`): every one uses the store.
    /// - Parameters:
    ///   - changesOnly: see ``changesOnly``.
    ///   - ownerMethods: see ``ownerMethods``.
    static func session(
        _ pattern: StaticString, _ methods: [String], metric: String, changesOnly: Bool = false, ownerMethods: [String] = [],
        _ handle: @escaping SessionHandler
    ) -> Endpoint {
        Endpoint(
            pattern: pattern, methods: methods, metricName: metric, usesStore: true, isAdmin: false, changesOnly: changesOnly,
            ownerMethods: ownerMethods, handler: .session(handle))
    }

    /// What a request with `method` needs of its token.
    func needs(_ method: String) -> AccessNeed {
        if ownerMethods.contains(method) { return .owner }
        return method == "GET" || method == "HEAD" ? .read : .write
    }

    /// Whether a request with `method` is answered only through a session's mutation (see ``changesOnly``).
    func changesOnly(_ method: String) -> Bool {
        changesOnly && method != "GET" && method != "HEAD"
    }
}
