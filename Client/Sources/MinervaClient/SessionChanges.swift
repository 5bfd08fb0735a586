import Foundation
import OpenAPIRuntime

/// A session's change log as an `AsyncSequence`: every event after a given one, in order and
/// each once, across dropped connections and server restarts.
///
/// It reads the server-sent event stream of `GET …/events`. When the stream drops, it opens
/// it again after the server's `retry` delay (longer while the server stays unreachable) with
/// `Last-Event-ID`, so nothing is lost; when the server no longer holds the events it missed
/// (`event: truncated`) it delivers ``SessionChange/reloaded(_:)`` with the current state and
/// goes on. When the answer is not a stream (a proxy that drops `Accept`), or with
/// ``Delivery/longPoll``, it long-polls `GET …/events?after=&wait=` instead. It ends when the
/// session is deleted or expires (`event: ended`, or `401` once it had been following), and
/// throws a ``MinervaError`` for any other error answer (`401` for a wrong token at the start).
///
/// Once it delivered the last event of a change's block, the session's ``MinervaSession/version``
/// is that change's: a client that renders from events sends it as `If-Match` on its next tap.
///
/// ```swift
/// for try await change in await session.changes() {
///     switch change {
///     case .event(let event): apply(event)
///     case .reloaded(let state): render(state)
///     }
/// }
/// ```
public struct SessionChanges: AsyncSequence, Sendable {
    /// How the events travel.
    public enum Delivery: Hashable, Sendable {
        /// The server-sent event stream, with the long poll as the fallback.
        case serverSentEvents
        /// `GET …/events?after=&wait=` only.
        case longPoll
    }

    let session: MinervaSession
    /// The `seq` to follow from.
    let after: Int
    let delivery: Delivery
    /// Whether a delivered block's last event makes its version the one the session's next change
    /// names (``MinervaSession/changes(after:delivery:)``); a mirror records its states instead.
    var advancesVersion = true

    /// Starts following.
    public func makeAsyncIterator() -> Iterator {
        Iterator(session: session, after: after, delivery: delivery, advancesVersion: advancesVersion)
    }

    /// Follows the change log for one loop.
    public struct Iterator: AsyncIteratorProtocol {
        private typealias Stream = ServerSentEventsDeserializationSequence<ServerSentEventsLineDeserializationSequence<HTTPBody>>

        private let session: MinervaSession
        private var delivery: Delivery
        /// The `seq` of the newest event delivered (or contained in a reloaded state).
        private var lastSeq: Int
        private let advancesVersion: Bool
        private var stream: Stream.AsyncIterator?
        private var ready: [SessionChange] = []
        private var reconnection = Reconnection()
        /// Whether the server answered once: a `401` after that means the session ended.
        private var hasFollowed = false
        private var hasEnded = false

        init(session: MinervaSession, after: Int, delivery: Delivery, advancesVersion: Bool) {
            self.session = session
            self.lastSeq = after
            self.delivery = delivery
            self.advancesVersion = advancesVersion
        }

        /// The next change, waiting for it; nil once the session ended.
        /// - Throws: ``MinervaError`` for an error answer other than the session's end;
        ///   `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> SessionChange? {
            while ready.isEmpty && !hasEnded {
                do {
                    switch delivery {
                    case .serverSentEvents: try await readStream()
                    case .longPoll: try await poll()
                    }
                } catch {
                    try await recover(from: error)
                }
            }
            guard !ready.isEmpty else { return nil }
            let change = ready.removeFirst()
            // A client that renders from events shows this version once it has its block's last
            // event: its next change names it in `If-Match`.
            if advancesVersion, case .event(let event) = change, event.isFinal { await session.saw(version: event.version) }
            return change
        }

        /// Reads one frame of the stream, opening it first when needed.
        private mutating func readStream() async throws {
            if stream == nil {
                let answer = try await session.eventStream(after: lastSeq)
                hasFollowed = true
                switch answer {
                case .textEventStream(let body):
                    stream = body.asDecodedServerSentEvents().makeAsyncIterator()
                case .json(let page):
                    delivery = .longPoll
                    try await receive(page)
                    return
                }
            }
            guard let frame = try await stream?.next() else { throw StreamClosed() }
            reconnection.succeeded()
            try await receive(frame)
        }

        /// Asks for the events after the last one, waiting for the next.
        private mutating func poll() async throws {
            let page = try await session.events(after: lastSeq)
            hasFollowed = true
            reconnection.succeeded()
            try await receive(page)
        }

        private mutating func receive(_ frame: ServerSentEvent) async throws {
            if let retry = frame.retry { reconnection.initialDelay = .milliseconds(retry) }
            switch frame.event {
            case "truncated": try await reload()
            case "ended": hasEnded = true
            default:
                guard let data = frame.data else { return }
                deliver(try Self.decoder.decode(Event.self, from: Data(data.utf8)))
            }
        }

        private mutating func receive(_ page: Components.Schemas.EventsPage) async throws {
            if page.truncated == true { try await reload() }
            page.events.forEach { deliver($0) }
        }

        private mutating func deliver(_ event: Event) {
            guard event.seq > lastSeq else { return }
            lastSeq = event.seq
            ready.append(.event(event))
        }

        /// Delivers the current state in place of the events the server no longer holds.
        private mutating func reload() async throws {
            let state = try await session.refresh()
            lastSeq = Swift.max(lastSeq, state.lastEvent)
            ready.append(.reloaded(state))
        }

        /// Decides what a failure means: the session's end, a final error, or a wait before
        /// the next attempt.
        private mutating func recover(from error: any Error) async throws {
            stream = nil
            let failure = AttemptFailure(error)
            if let answer = failure.error as? MinervaError, answer.status == 401, hasFollowed {
                hasEnded = true
                return
            }
            guard failure.isRetryable else { throw failure.error }
            try await reconnection.wait(after: failure)
        }

        /// Event data as the server writes it.
        private static let decoder = Event.wireDecoder
    }
}

/// The server closed the event stream (it stopped, or a proxy timed out): open it again.
private struct StreamClosed: Error {}
