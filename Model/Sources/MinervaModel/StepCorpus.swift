public import MinervaCoordinator
public import MinervaJSON

/// One file of the model's golden corpus (`Model/Corpus/`): an app description, a new session's
/// state, the limits, and changes as the API takes them (an operation and its body) each with
/// its time and what the step made of it — the block's events as the API shows them, or the
/// refusal — then the state document after the last. Every program that runs this model version
/// must make the same of it: the server's tests and the Swift client's run every file.
///
/// The times are inputs: change *i* runs at ``firstTime`` + *i* seconds, which its events carry.
public struct StepCorpus: Sendable {
    /// What the step made of one change.
    public enum Outcome: Equatable, Sendable {
        /// The change's block, each event as the API shows it.
        case block([JSONValue])
        /// The change changed nothing (no version, no event).
        case unchanged
        /// The step refused the change: the error's category and its code, when it has one.
        case refused(category: String, code: String?)
    }

    /// One change and what the step made of it.
    public struct Change: Sendable {
        /// The operation, as the last segment of its path (`push`, `set-root`).
        public var operation: NavigationOperation
        /// Its body, as the API takes it.
        public var body: JSONValue
        /// What the step made of it.
        public var outcome: Outcome
    }

    /// The time of the first change, in milliseconds since 1970.
    public static let firstTime = 1_767_225_600_000
    /// The session id the corpus's state documents carry.
    static let sessionID = "s_corpus"

    /// The model version that made the outcomes.
    public var modelVersion: Int
    /// The app the session runs, as its file says it.
    public var appSource: JSONValue
    /// The layout and flags the session was made with.
    public var layout: Layout
    /// The flags the session was made with.
    public var flags: [String]
    /// The limits every change was checked against.
    public var limits: StepLimits
    /// The changes, in order.
    public var changes: [Change]
    /// The state document after the last change, with its lists.
    public var finalState: JSONValue

    /// Runs `count` changes (an operation and its body, each chosen by `next` from the state
    /// before it) from a new session of `app` and records what the step makes of each: a corpus
    /// file of this model version.
    /// - Throws: ``JSONReadError`` for a body that is not one of its operation (the API's `400`),
    ///   ``AppDescriptionError`` for an app file that is not one.
    public static func recording(
        app appSource: JSONValue, layout: Layout = .stack, flags: [String] = [], limits: StepLimits, count: Int,
        next: (SessionState) -> (operation: NavigationOperation, body: JSONValue)
    ) throws -> StepCorpus {
        var corpus = StepCorpus(
            modelVersion: ModelVersion.current, appSource: appSource, layout: layout, flags: flags, limits: limits, changes: [], finalState: .null)
        var state = try corpus.start()
        for _ in 0..<count {
            let (operation, body) = next(state)
            let outcome = try Self.run(operation, body, on: &state, limits: limits, at: firstTime + corpus.changes.count * 1000)
            corpus.changes.append(Change(operation: operation, body: body, outcome: outcome))
        }
        corpus.finalState = try JSONParser.parse(StateDocument.encode(sessionID: sessionID, state: state))
        return corpus
    }

    /// Runs the corpus with this build's step.
    /// - Returns: a description of each change whose outcome differs from the recorded one, and of
    ///   a final state that differs; empty when the step makes exactly what the corpus says.
    /// - Throws: when the corpus cannot be run at all (its app or a body no longer reads).
    public func mismatches() throws -> [String] {
        var state = try start()
        var found: [String] = []
        for (index, change) in changes.enumerated() {
            let outcome = try Self.run(change.operation, change.body, on: &state, limits: limits, at: Self.firstTime + index * 1000)
            if outcome != change.outcome {
                found.append("change \(index) (\(change.operation.rawValue) \(change.body)): recorded \(change.outcome), now \(outcome)")
            }
        }
        let final = try JSONParser.parse(StateDocument.encode(sessionID: Self.sessionID, state: state))
        if final != finalState { found.append("the final state differs: recorded \(finalState), now \(final)") }
        return found
    }

    /// A new session's state, as the server makes one for `POST /v1/sessions` with the layout and flags.
    private func start() throws -> SessionState {
        var writer = JSONWriter()
        writer.value(appSource)
        let app = try AppDescription.parse(writer.bytes, source: "corpus")
        try CoordinatorTree.check(layout: layout, for: app)
        return SessionState(tree: CoordinatorTree(app: app, layout: layout, flags: Set(flags)), appVersion: "corpus")
    }

    /// One change through the step.
    private static func run(
        _ operation: NavigationOperation, _ body: JSONValue, on state: inout SessionState, limits: StepLimits, at: Int
    ) throws -> Outcome {
        let command = try SessionCommand(operation, body: JSONObjectReader(body, keys: operation.bodyKeys))
        let step: SessionState.Step?
        do throws(SessionError) {
            step = try state.step(command, limits: limits, at: at)
        } catch {
            return .refused(category: error.category.name, code: error.code)
        }
        guard let step else { return .unchanged }
        state = step.next
        return .block(try step.block.map { event in
            var writer = JSONWriter()
            event.writeWire(into: &writer)
            return try JSONParser.parse(writer.bytes)
        })
    }
}

extension SessionError.Category {
    /// The category's name in the corpus (`notFound`, `conflict`, …).
    var name: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .notFound: "notFound"
        case .invalid: "invalid"
        case .conflict: "conflict"
        case .preconditionFailed: "preconditionFailed"
        case .rateLimited: "rateLimited"
        case .unavailable: "unavailable"
        case .appChanged: "appChanged"
        case .appVersionConflict: "appVersionConflict"
        }
    }
}
