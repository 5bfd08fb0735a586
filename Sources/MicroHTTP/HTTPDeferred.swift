import CMicroHTTPD
import Locking

/// An answer that comes later (a long poll, a write waiting for storage, work done on another
/// thread). The connection is suspended, holding no thread, until ``complete(_:)`` or
/// ``complete(with:)`` resumes it with the answer — a response, a stream, or the answer of
/// another deferred.
public final class HTTPDeferred: Sendable {
    /// What the connection is sent.
    enum Answer: Sendable {
        case response(HTTPResponse)
        case stream(status: Int, headers: [(name: String, value: String)], HTTPStream)
    }

    private enum Phase {
        case waiting
        case suspended(ConnectionHandle)
        case completed(Answer)
        /// Its answer goes to another deferred, when it comes.
        case forwarding(HTTPDeferred)
        case sent
    }

    private struct State {
        var phase = Phase.waiting
        /// What is sent if the server stops before the answer comes.
        var fallback: HTTPResponse
        /// Whether the fallback may also be sent early, to free the connection while the server is full.
        var endsEarly: Bool
    }

    private let state: Locked<State>
    /// Header fields added to whatever answer is sent.
    private let headers: [(name: String, value: String)]

    /// Creates a deferred answer.
    /// - Parameters:
    ///   - fallback: the answer sent if the server shuts down first.
    ///   - headers: header fields added to the answer, whichever it is (a request id, say).
    ///   - endsEarly: whether the fallback is also a right answer before the wait is over (a
    ///     long poll's "nothing new yet"): the server then sends it early, and closes the
    ///     connection after it, when it is full and no other connection can make room.
    public init(fallback: HTTPResponse, headers: [(name: String, value: String)] = [], endsEarly: Bool = false) {
        state = Locked(State(fallback: fallback, endsEarly: endsEarly))
        self.headers = headers
    }

    /// Gives the answer; the first call wins, later ones are ignored.
    /// - Returns: whether this call gave the answer.
    @discardableResult
    public func complete(_ response: HTTPResponse) -> Bool {
        give(.response(response))
    }

    /// Answers with `reply`: a response or a stream at once, or another deferred's answer
    /// when that one comes (its fallback, and whether it ends early, become this one's). The
    /// first answer wins.
    /// - Returns: whether this call gave the answer (for a deferred: whether it will).
    @discardableResult
    public func complete(with reply: HTTPReply) -> Bool {
        switch reply {
        case .response(let response):
            return give(.response(response))
        case .stream(let status, let headers, let stream):
            guard give(.stream(status: status, headers: headers, stream)) else {
                stream.cancel()
                return false
            }
            return true
        case .deferred(let inner):
            let (fallback, endsEarly) = inner.state.withLock { ($0.fallback, $0.endsEarly) }
            let open = state.withLock { state -> Bool in
                switch state.phase {
                case .waiting, .suspended:
                    state.fallback = fallback
                    state.endsEarly = endsEarly
                    return true
                case .completed, .forwarding, .sent:
                    return false
                }
            }
            return open && inner.forward(to: self)
        }
    }

    /// Answers with the fallback (the server is stopping).
    func completeWithFallback() {
        give(.response(state.withLock { $0.fallback }))
    }

    /// Whether its fallback may be sent early (see ``init(fallback:headers:endsEarly:)``).
    var endsEarly: Bool {
        state.withLock { $0.endsEarly }
    }

    /// Answers with the fallback and `Connection: close` if it may end early.
    /// - Returns: whether this call gave the answer.
    func answerEarly() -> Bool {
        guard var fallback = state.withLock({ $0.endsEarly ? $0.fallback : nil }) else { return false }
        fallback.headers.append(("Connection", "close"))
        return give(.response(fallback))
    }

    /// Whether the answer has been given. One that is to be forwarded to another deferred (a
    /// request answered on another thread, see ``complete(with:)``) is answered when that one is
    /// (its own answer, or one the server gave early).
    public var isCompleted: Bool {
        let target = state.withLock { state -> HTTPDeferred?? in
            switch state.phase {
            case .waiting, .suspended: .some(nil)
            case .forwarding(let target): .some(target)
            case .completed, .sent: nil
            }
        }
        guard let target else { return true }
        return target?.isCompleted ?? false
    }

    /// The answer once it is given and until it is sent (for a caller that answers requests
    /// itself, without a connection: an in-process client); `nil` for a stream.
    public var response: HTTPResponse? {
        state.withLock { state in
            guard case .completed(.response(var response)) = state.phase else { return nil }
            response.headers.append(contentsOf: headers)
            return response
        }
    }

    /// Records the answer and resumes the connection if it is suspended.
    @discardableResult
    private func give(_ answer: Answer) -> Bool {
        let target = state.withLock { state -> HTTPDeferred?? in
            switch state.phase {
            case .waiting:
                state.phase = .completed(answer)
                return .some(nil)
            case .suspended(let connection):
                state.phase = .completed(answer)
                MHD_resume_connection(connection.pointer)
                return .some(nil)
            case .forwarding(let target):
                state.phase = .sent
                return .some(target)
            case .completed, .sent:
                return nil
            }
        }
        guard let target else { return false }
        guard let forwardTo = target else { return true }
        return forwardTo.give(adding(answer))
    }

    /// Sends this deferred's answer to `target` when it comes (at once if it is there).
    private func forward(to target: HTTPDeferred) -> Bool {
        let ready = state.withLock { state -> Answer? in
            switch state.phase {
            case .completed(let answer):
                state.phase = .sent
                return answer
            case .waiting:
                state.phase = .forwarding(target)
                return nil
            case .suspended, .forwarding, .sent:
                preconditionFailure("a deferred answer forwarded after it was handed to a connection")
            }
        }
        guard let ready else { return true }
        return target.give(adding(ready))
    }

    /// The answer with this deferred's header fields.
    private func adding(_ answer: Answer) -> Answer {
        switch answer {
        case .response(var response):
            response.headers.append(contentsOf: headers)
            return .response(response)
        case .stream(let status, var fields, let stream):
            fields.append(contentsOf: headers)
            return .stream(status: status, headers: fields, stream)
        }
    }

    /// Called on the connection's thread: the answer if it is already there, else suspends.
    func suspendUnlessCompleted(_ connection: OpaquePointer) -> Answer? {
        state.withLock { state in
            switch state.phase {
            case .completed(let answer):
                state.phase = .sent
                return adding(answer)
            case .waiting:
                state.phase = .suspended(ConnectionHandle(pointer: connection))
                MHD_suspend_connection(connection)
                return nil
            case .suspended, .forwarding, .sent:
                return nil
            }
        }
    }
}

/// A connection pointer owned by libmicrohttpd, passed between threads only to resume it.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
