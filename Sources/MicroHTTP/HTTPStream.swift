import CMicroHTTPD
import Locking

/// A response body sent in chunks as they are produced (server-sent events). While no chunk
/// is ready the connection is suspended, holding no thread; ``send(_:)`` resumes it.
///
/// libmicrohttpd does not watch a suspended connection, so it would not see its client go away
/// until the next write failed. The server therefore looks at every streaming connection's socket
/// about once a second and ends the stream whose client closed or reset it (``abandon()``), and
/// sends the stream's heartbeat when nothing else was sent for a while: a write that finds a peer
/// that vanished without a word, and keeps proxies from cutting an idle stream.
public final class HTTPStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var offset = 0
        var finished = false
        var cancelled = false
        /// The client went away: the body ends with an error and the connection closes.
        var abandoned = false
        /// When a chunk was last queued (monotonic seconds).
        var lastQueued: Double
        var suspended: ConnectionHandle?
        var connection: ConnectionHandle?
    }

    private let state = Locked(State(lastQueued: ConnectionTable.now()))
    private let heartbeat: [UInt8]?
    private let onClose: (@Sendable () -> Void)?

    /// Creates an open stream.
    /// - Parameters:
    ///   - heartbeat: a chunk the server sends whenever nothing was sent for its heartbeat
    ///     interval (``HTTPServerConfiguration/streamHeartbeat``), one the client ignores (a
    ///     server-sent events comment); `nil`: none.
    ///   - onClose: called once, when the response is gone (the body ended and was sent, or the
    ///     client went away) or the stream was cancelled before it was sent.
    public init(heartbeat: [UInt8]? = nil, onClose: (@Sendable () -> Void)? = nil) {
        self.heartbeat = heartbeat
        self.onClose = onClose
    }

    /// Queues a chunk for the client.
    /// - Returns: `false` when the client has gone (the stream is cancelled); drop the stream then.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.cancelled, !state.finished, !state.abandoned else { return false }
            state.chunks.append(bytes)
            state.lastQueued = ConnectionTable.now()
            Self.wake(&state)
            return true
        }
    }

    /// Queues the heartbeat when nothing was queued for `interval` seconds.
    /// - Parameters:
    ///   - now: the monotonic time, in seconds.
    ///   - interval: the heartbeat interval, in seconds.
    /// - Returns: whether the heartbeat was queued.
    @discardableResult
    func keepAlive(now: Double, interval: Double) -> Bool {
        state.withLock { state in
            guard let heartbeat, !state.cancelled, !state.finished, !state.abandoned,
                state.chunks.isEmpty, now - state.lastQueued >= interval
            else { return false }
            state.chunks.append(heartbeat)
            state.lastQueued = now
            Self.wake(&state)
            return true
        }
    }

    /// Ends the stream because its client has gone: what is queued is dropped, and the connection
    /// is resumed so that libmicrohttpd ends the body with an error and closes the connection,
    /// which releases the stream (``onClose`` runs then).
    func abandon() {
        state.withLock { state in
            guard !state.cancelled, !state.abandoned else { return }
            state.abandoned = true
            state.chunks = []
            Self.wake(&state)
        }
    }

    /// Ends the body once the queued chunks are sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            Self.wake(&state)
        }
    }

    /// Ends the body early, telling the client to reconnect in 5 s (`retry:`), when the server is
    /// full and no other connection can make room.
    /// - Returns: whether the stream was still open.
    func endEarly() -> Bool {
        state.withLock { state in
            guard !state.cancelled, !state.finished, !state.abandoned else { return false }
            state.chunks.append(Array("retry: 5000\n\n".utf8))
            state.finished = true
            Self.wake(&state)
            return true
        }
    }

    /// Whether the client has gone or the stream was finished.
    public var isClosed: Bool {
        state.withLock { $0.cancelled || $0.finished || $0.abandoned }
    }

    private static func wake(_ state: inout State) {
        if let suspended = state.suspended {
            state.suspended = nil
            MHD_resume_connection(suspended.pointer)
        }
    }

    func attach(_ connection: OpaquePointer) {
        state.withLock { $0.connection = ConnectionHandle(pointer: connection) }
    }

    /// libmicrohttpd's content reader: copies queued bytes, ends the body, or suspends.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if state.abandoned { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR: closes the connection
            while let first = state.chunks.first {
                let remaining = first.count - state.offset
                if remaining == 0 {
                    state.chunks.removeFirst()
                    state.offset = 0
                    continue
                }
                let count = min(remaining, capacity)
                first.withUnsafeBufferPointer { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.offset += count
                if state.offset == first.count {
                    state.chunks.removeFirst()
                    state.offset = 0
                }
                return count
            }
            if state.finished || state.cancelled { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            if let connection = state.connection {
                state.suspended = connection
                MHD_suspend_connection(connection.pointer)
            }
            return 0
        }
    }

    /// The response is gone (sent, or the client went away), or will never be sent.
    public func cancel() {
        let first = state.withLock { state in
            defer {
                state.cancelled = true
                state.chunks = []
            }
            return !state.cancelled
        }
        if first { onClose?() }
    }
}
