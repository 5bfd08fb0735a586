/// A session's state documents as an `AsyncSequence`: every state newer than the one the
/// session saw last, by long poll (`GET …?wait=25` with `If-None-Match`).
///
/// Each state it delivers becomes the session's ``MinervaSession/state``, so the next change
/// sends its version as `If-Match`. It waits and asks again while the server cannot be
/// reached, ends when the session is deleted or expires (`401` once it had been following),
/// and throws a ``MinervaError`` for any other error answer.
public struct SessionStates: AsyncSequence, Sendable {
    let session: MinervaSession

    /// Starts following.
    public func makeAsyncIterator() -> Iterator {
        Iterator(session: session)
    }

    /// Follows the state for one loop.
    public struct Iterator: AsyncIteratorProtocol {
        private let session: MinervaSession
        private var reconnection = Reconnection()
        private var hasFollowed = false

        init(session: MinervaSession) {
            self.session = session
        }

        /// The next state, waiting for it; nil once the session ended.
        /// - Throws: ``MinervaError`` for an error answer other than the session's end;
        ///   `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> SessionState? {
            while true {
                do {
                    let state = try await session.nextState()
                    hasFollowed = true
                    reconnection.succeeded()
                    if let state { return state }
                } catch {
                    let failure = AttemptFailure(error)
                    if let answer = failure.error as? MinervaError, answer.status == 401, hasFollowed { return nil }
                    guard failure.isRetryable else { throw failure.error }
                    try await reconnection.wait(after: failure)
                }
            }
        }
    }
}
