import Locking
import Synchronization

/// What the C callbacks reach through their context pointer.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodySize: Int
    /// The open connections: admission, shedding and the receive deadline.
    let connections: ConnectionTable
    /// Requests begun and not yet completed.
    let inFlight = Atomic<Int>(0)
    /// Answers still to come (long polls, streams), so that shutdown can end them first.
    let waiting = Locked<[ObjectIdentifier: Waiting]>([:])

    /// A long poll or a stream that holds a suspended connection.
    enum Waiting: Sendable {
        case deferred(HTTPDeferred)
        case stream(HTTPStream)
    }

    init(responder: any HTTPResponder, maxBodySize: Int, connections: ConnectionTable) {
        self.responder = responder
        self.maxBodySize = maxBodySize
        self.connections = connections
    }
}

/// One request's state between libmicrohttpd's calls, kept behind `con_cls`.
/// Only the thread that owns the connection touches it.
final class RequestState {
    let head: RequestHead
    var body: [UInt8] = []
    var bodyExceedsLimit: Bool
    /// The deferred answer this request waits for, once the responder has chosen to wait.
    var deferred: HTTPDeferred?
    /// The key under which a long poll or stream is registered in ``ServerContext/waiting``.
    var waitingKey: ObjectIdentifier?

    init(head: RequestHead, bodyExceedsLimit: Bool) {
        self.head = head
        self.bodyExceedsLimit = bodyExceedsLimit
    }
}
