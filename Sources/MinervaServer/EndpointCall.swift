import MicroHTTP
import MinervaSessions

/// A request to one of the server's own endpoints, as its handler gets it.
struct ServerCall {
    let request: HTTPRequest
    let exchange: Exchange
    /// The ids the path names (`{fileName}`).
    let path: PathParameters
}

/// A request to one of a session's endpoints, as its handler gets it: its session found (the
/// path's id and the bearer token name it) and its method admitted.
struct SessionCall {
    let session: LiveSession
    /// The method to answer: `GET` for `HEAD`.
    let method: String
    let request: HTTPRequest
    let exchange: Exchange
    /// The ids the path names under the session's (`{node}`, `{screen}`, `{version}`).
    let path: PathParameters
}
