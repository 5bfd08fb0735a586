import Dispatch
import Locking
import Logging
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import TestSupport

/// A session core and the calls a test makes on it, waiting for durable outcomes.
struct CoreHarness {
    let core: SessionCore

    init(app: AppDescription = .tabs, storage: (any SessionStorage & AnalyticsStorage)? = nil, configuration: SessionConfiguration = SessionConfiguration(rateLimit: 0))
        throws
    {
        core = try SessionCore(app: app, appVersion: "test", configuration: configuration, persistence: .of(storage), logger: Logger(label: "test"))
    }

    /// Creates a session and returns it with its token.
    func create(layout: Layout = .stack, flags: [String] = [], user: String? = nil, variants: [String: String] = [:]) throws -> (session: LiveSession, token: String) {
        let answer = try wait { completion in
            core.create(
                layout: layout, deepLink: nil, flags: flags, user: user, variants: variants, key: nil,
                answer: { StoredAnswer(status: 201, headers: [], body: Array("\($0.token):\($0.id)".utf8)) }, completion: completion)
        }.get()
        let text = String(decoding: answer.body, as: UTF8.self).split(separator: ":")
        let token = String(text[0])
        return (try core.session(String(text[1]), token: token), token)
    }

    /// Runs a command and waits for its outcome; its answer's body is the version it made.
    func run(
        _ command: SessionCommand, on session: LiveSession, key: IdempotencyKey? = nil, numbered: DeviceChange? = nil, deviceTime: Int? = nil
    ) -> Result<MutationResult, SessionError> {
        wait { completion in
            core.mutate(session, Mutation(command: command, precondition: nil, idempotencyKey: key, numbered: numbered, deviceTime: deviceTime) { state in
                StoredAnswer(status: 200, headers: [], body: Array(String(state.version).utf8))
            }, completion: completion)
        }
    }

    /// Runs a command without waiting: its outcome comes to `completion` (at once or later).
    func start(_ command: SessionCommand, on session: LiveSession, completion: @escaping MutationCompletion) {
        let mutation = Mutation(command: command, precondition: nil, idempotencyKey: nil) { _ in StoredAnswer(status: 200, headers: [], body: []) }
        if let outcome = core.mutate(session, mutation, completion: completion) { completion(outcome) }
    }

    /// The session's in-memory log now.
    func log(of session: LiveSession) -> SessionLog {
        session.slot.withLock { $0.log }
    }

    /// The session's state now.
    func state(of session: LiveSession) throws -> SessionState {
        try core.read(session) { $0 }
    }

    /// The version and newest event of a session's head in the store, as the session keeps it.
    func storedHead(of session: LiveSession) -> SessionHead {
        session.slot.withLock { $0.storedHead }
    }

    /// Calls something that answers at once or later, and waits for the answer.
    func wait<T: Sendable>(_ call: (@escaping @Sendable (T) -> Void) -> T?) -> T {
        let box = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        if let now = call({ outcome in
            box.withLock { $0 = outcome }
            done.signal()
        }) {
            return now
        }
        done.wait()
        return box.withLock { $0! }
    }
}

/// Collects every block published for a session.
final class Recorder: EventSubscriber {
    private let blocks = Locked<[[SessionEvent]]>([])
    private let ended = Locked(false)
    /// The extra token it follows with, if any.
    let grant: String?

    init(grant: String? = nil) {
        self.grant = grant
    }

    func receive(_ events: ArraySlice<SessionEvent>, state: SessionState) -> Bool {
        blocks.withLock { $0.append(Array(events)) }
        return true
    }

    func sessionEnded() {
        ended.withLock { $0 = true }
    }

    var isActive: Bool { true }

    /// The blocks received so far.
    var received: [[SessionEvent]] { blocks.withLock { $0 } }

    /// Whether the session ended.
    var sawEnd: Bool { ended.withLock { $0 } }
}
