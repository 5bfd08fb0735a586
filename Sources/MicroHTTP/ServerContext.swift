import Synchronization

/// What the C callbacks reach through their context pointer.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodySize: Int
    /// Requests begun and not yet completed.
    let inFlight = Atomic<Int>(0)

    init(responder: any HTTPResponder, maxBodySize: Int) {
        self.responder = responder
        self.maxBodySize = maxBodySize
    }
}

/// One request's state between libmicrohttpd's calls, kept behind `con_cls`.
/// Only the thread that owns the connection touches it.
final class RequestState {
    let method: String
    let path: String
    var body: [UInt8] = []
    var bodyExceedsLimit: Bool

    init(method: String, path: String, bodyExceedsLimit: Bool) {
        self.method = method
        self.path = path
        self.bodyExceedsLimit = bodyExceedsLimit
    }
}
