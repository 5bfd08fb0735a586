public import MinervaModel

/// A mutation as the API hands it to the core. A class: it waits in line, is written, and may run
/// again after a conflict, and each of those hands on one reference rather than a copy of all it holds.
public final class Mutation: Sendable {
    /// What to do.
    public let command: SessionCommand
    /// The versions the client accepts (`If-Match`); `nil` accepts any.
    public let precondition: (@Sendable (Int) -> Bool)?
    /// The request's `Idempotency-Key`, if any.
    public let idempotencyKey: IdempotencyKey?
    /// The device's number for the change (`Minerva-Device-Change`), if any.
    public let numbered: DeviceChange?
    /// When the device says the change was made (`Minerva-Device-Time`), in milliseconds since
    /// 1970: what analytics record, unless it is later than the server's clock or earlier than
    /// the session, when they record the server's time.
    public let deviceTime: Int?
    /// Builds the answer from the state the mutation produced (or, for a no-op, the unchanged
    /// one); it is remembered for the `Idempotency-Key` and stored with the mutation.
    public let answer: @Sendable (SessionState) -> StoredAnswer
    /// Builds the answer to a device's number the session applied already, from the session's id
    /// and its current state (the state document, whatever the endpoint answers otherwise: the
    /// change's own answer may no longer be made, its node gone); `nil`: ``answer``.
    public let appliedAnswer: (@Sendable (_ sessionID: String, _ state: SessionState) -> StoredAnswer)?
    /// When the core was handed it: an answer made from a state known to be the store's no
    /// earlier than this is one the session had while the request was open.
    let arrival = ContinuousClock.now

    /// Creates a mutation.
    public init(
        command: SessionCommand, precondition: (@Sendable (Int) -> Bool)?, idempotencyKey: IdempotencyKey?, numbered: DeviceChange? = nil,
        deviceTime: Int? = nil, appliedAnswer: (@Sendable (_ sessionID: String, _ state: SessionState) -> StoredAnswer)? = nil,
        answer: @escaping @Sendable (SessionState) -> StoredAnswer
    ) {
        self.command = command
        self.precondition = precondition
        self.idempotencyKey = idempotencyKey
        self.numbered = numbered
        self.deviceTime = deviceTime
        self.appliedAnswer = appliedAnswer
        self.answer = answer
    }
}

/// How a mutation ended well.
public struct MutationResult: Sendable {
    /// The answer, made already (remembered, or stored with the mutation for its key), or made
    /// from the state the mutation produced when it is read: after the swap, outside the
    /// session's lock.
    private enum Answer: Sendable {
        case made(StoredAnswer)
        case from(SessionState, @Sendable (SessionState) -> StoredAnswer)
    }

    private let made: Answer
    /// The block of events it appended (empty for a no-op or a remembered answer).
    public let events: ArraySlice<SessionEvent>
    /// Whether the answer is a remembered one (a retry with the same `Idempotency-Key`).
    public let replayed: Bool

    /// A result with its answer made.
    init(answer: StoredAnswer, events: ArraySlice<SessionEvent>, replayed: Bool) {
        made = .made(answer)
        self.events = events
        self.replayed = replayed
    }

    /// A result whose answer `answer` makes from `state` when it is read.
    init(state: SessionState, answer: @escaping @Sendable (SessionState) -> StoredAnswer, events: ArraySlice<SessionEvent>) {
        made = .from(state, answer)
        self.events = events
        replayed = false
    }

    /// The answer to send (made now, the first time, when it was not made with the mutation).
    public var answer: StoredAnswer {
        switch made {
        case .made(let answer): answer
        case .from(let state, let make): make(state)
        }
    }
}

/// Receives a mutation's outcome once it is durable (or refused).
public typealias MutationCompletion = @Sendable (Result<MutationResult, SessionError>) -> Void
