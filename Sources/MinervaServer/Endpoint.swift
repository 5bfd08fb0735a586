import MicroHTTP

/// One endpoint of the API, a row of ``all`` (`Endpoints.swift`): its path as openapi.yaml writes
/// it, the methods it answers, its name in metrics, whether answering it may use the session
/// store, and its handler.
struct Endpoint: Sendable {
    /// How the endpoint is answered, once its method is admitted.
    enum Handler: Sendable {
        /// A path of the server's own, answered without a session.
        case server(@Sendable (MinervaAPI, ServerCall) throws(APIError) -> HTTPReply)
        /// A path under `/v1/sessions/{id}`, answered with the session its id and the bearer token name.
        case session(@Sendable (MinervaAPI, SessionCall) throws(APIError) -> HTTPReply)
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
    /// What answers it.
    let handler: Handler

    /// A path of the server's own.
    static func server(
        _ pattern: StaticString, _ methods: [String], metric: String, usesStore: Bool,
        _ handle: @escaping @Sendable (MinervaAPI, ServerCall) throws(APIError) -> HTTPReply
    ) -> Endpoint {
        Endpoint(pattern: PathPattern(pattern), methods: methods, metricName: metric, usesStore: usesStore, isAdmin: false, handler: .server(handle))
    }

    /// An admin report: answered only with the admin token; it reads the store, within the longer
    /// deadline of reports.
    static func admin(
        _ pattern: StaticString, _ methods: [String], metric: String,
        _ handle: @escaping @Sendable (MinervaAPI, ServerCall) throws(APIError) -> HTTPReply
    ) -> Endpoint {
        Endpoint(pattern: PathPattern(pattern), methods: methods, metricName: metric, usesStore: true, isAdmin: true, handler: .server(handle))
    }

    /// A path of one session (`/v1/sessions/{id}…`): every one uses the store.
    static func session(
        _ pattern: StaticString, _ methods: [String], metric: String,
        _ handle: @escaping @Sendable (MinervaAPI, SessionCall) throws(APIError) -> HTTPReply
    ) -> Endpoint {
        Endpoint(pattern: PathPattern(pattern), methods: methods, metricName: metric, usesStore: true, isAdmin: false, handler: .session(handle))
    }
}
