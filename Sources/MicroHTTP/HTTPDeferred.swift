import CMicroHTTPD
import Locking

/// An answer that comes later (a long poll). The connection is suspended, holding no thread,
/// until ``complete(_:)`` resumes it with the answer.
public final class HTTPDeferred: Sendable {
    private enum State {
        case waiting
        case suspended(ConnectionHandle)
        case completed(HTTPResponse)
        case sent
    }

    private let state = Locked<State>(.waiting)
    /// What is sent if the server stops before the answer comes.
    let fallback: HTTPResponse
    /// Header fields added to whatever answer is sent.
    private let headers: [(name: String, value: String)]

    /// Creates a deferred answer.
    /// - Parameters:
    ///   - fallback: the answer sent if the server shuts down first.
    ///   - headers: header fields added to the answer, whichever it is (a request id, say).
    public init(fallback: HTTPResponse, headers: [(name: String, value: String)] = []) {
        self.fallback = fallback
        self.headers = headers
    }

    /// Gives the answer; the first call wins, later ones are ignored.
    /// - Returns: whether this call gave the answer.
    @discardableResult
    public func complete(_ response: HTTPResponse) -> Bool {
        state.withLock { state in
            switch state {
            case .waiting:
                state = .completed(response)
                return true
            case .suspended(let connection):
                state = .completed(response)
                MHD_resume_connection(connection.pointer)
                return true
            case .completed, .sent:
                return false
            }
        }
    }

    /// Whether the answer has been given.
    public var isCompleted: Bool {
        state.withLock { state in
            if case .waiting = state { return false }
            if case .suspended = state { return false }
            return true
        }
    }

    /// The answer once it is given and until it is sent (for a caller that answers requests
    /// itself, without a connection: an in-process client).
    public var response: HTTPResponse? {
        state.withLock { state in
            guard case .completed(var response) = state else { return nil }
            response.headers.append(contentsOf: headers)
            return response
        }
    }

    /// Called on the connection's thread: the answer if it is already there, else suspends.
    func suspendUnlessCompleted(_ connection: OpaquePointer) -> HTTPResponse? {
        state.withLock { state in
            switch state {
            case .completed(var response):
                state = .sent
                response.headers.append(contentsOf: headers)
                return response
            case .waiting:
                state = .suspended(ConnectionHandle(pointer: connection))
                MHD_suspend_connection(connection)
                return nil
            case .suspended, .sent:
                return nil
            }
        }
    }
}

/// A connection pointer owned by libmicrohttpd, passed between threads only to resume it.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
