public import MinervaCoordinator
public import MinervaJSON

/// One file of the model's golden corpus (`Model/Corpus/`): an app description, a new session's
/// state, the limits, and changes as the API takes them (a navigation or node operation, its body,
/// and the device's number for it when one numbered it) each with
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
        /// The change changed nothing and no device numbered it (no version, no event).
        case unchanged
        /// The step refused the change: the error's category and its code, when it has one.
        case refused(category: String, code: String?)
    }

    /// A change's operation, as the API's path names it.
    public enum Operation: Equatable, Sendable {
        /// `POST /v1/sessions/{id}/{operation}`: written `push`, `set-root`, ….
        case navigation(NavigationOperation)
        /// `…/nodes/{node}/{operation}` (`…/results/{screen}`): written `nodes/n3/ui`, `nodes/n1/results/login`,
        /// and a list patch (which `PATCH`es the list's path) `nodes/n1/list-patch`.
        case node(NodeOperation, node: String, screen: String?)

        /// The operation as the corpus writes it: its path after the session's.
        public var path: String {
            switch self {
            case .navigation(let operation): operation.rawValue
            case .node(let operation, let node, let screen): "nodes/\(node)/\(operation.rawValue)" + (screen.map { "/" + $0 } ?? "")
            }
        }

        /// Reads an operation as ``path`` writes it; `nil` for one that is not.
        public init?(path: String) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 1, let operation = NavigationOperation(rawValue: parts[0]) {
                self = .navigation(operation)
            } else if parts.count >= 3, parts[0] == "nodes", let operation = NodeOperation(rawValue: parts[2]),
                parts.count == (operation == .results ? 4 : 3)
            {
                self = .node(operation, node: parts[1], screen: operation == .results ? parts[3] : nil)
            } else {
                return nil
            }
        }
    }

    /// One change and what the step made of it.
    public struct Change: Sendable {
        /// The operation.
        public var operation: Operation
        /// Its body, as the API takes it.
        public var body: JSONValue
        /// The device's number for it (`Minerva-Device-Change`), if it had one.
        public var device: DeviceChange?
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

    /// Runs `count` changes (an operation, its body and its device's number, each chosen by
    /// `next` from the state before it) from a new session of `app` and records what the step
    /// makes of each: a corpus file of this model version.
    /// - Throws: ``JSONReadError`` for a body that is not one of its operation (the API's `400`),
    ///   ``AppDescriptionError`` for an app file that is not one.
    public static func recording(
        app appSource: JSONValue, layout: Layout = .stack, flags: [String] = [], limits: StepLimits, count: Int,
        next: (SessionState) -> (operation: Operation, body: JSONValue, device: DeviceChange?)
    ) throws -> StepCorpus {
        var corpus = StepCorpus(
            modelVersion: ModelVersion.current, appSource: appSource, layout: layout, flags: flags, limits: limits, changes: [], finalState: .null)
        var state = try corpus.start()
        for _ in 0..<count {
            let (operation, body, device) = next(state)
            let outcome = try Self.run(operation, body, device, on: &state, limits: limits, at: firstTime + corpus.changes.count * 1000)
            corpus.changes.append(Change(operation: operation, body: body, device: device, outcome: outcome))
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
            let outcome = try Self.run(change.operation, change.body, change.device, on: &state, limits: limits, at: Self.firstTime + index * 1000)
            if outcome != change.outcome {
                found.append("change \(index) (\(change.operation.path) \(change.body)): recorded \(change.outcome), now \(outcome)")
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
        // A session of an app with experiments runs the last variant of each.
        let variants = try app.effective(
            choosing: app.experiments.compactMap { experiment in
                experiment.variants.last.map { AppDescription.Choice(experiment: experiment.key, variant: $0.name) }
            })
        try CoordinatorTree.check(layout: layout, for: variants)
        return SessionState(tree: CoordinatorTree(app: variants, layout: layout, flags: Set(flags)), appVersion: "corpus", assignedAt: Self.firstTime)
    }

    /// One change through the step.
    private static func run(
        _ operation: Operation, _ body: JSONValue, _ device: DeviceChange?, on state: inout SessionState, limits: StepLimits, at: Int
    ) throws -> Outcome {
        let command: SessionCommand
        switch operation {
        case .navigation(let operation): command = try SessionCommand(operation, body: JSONObjectReader(body, keys: operation.bodyKeys))
        case .node(let operation, let node, let screen): command = try SessionCommand(operation, node: node, screen: screen, body: body)
        }
        let step: SessionState.Step?
        do throws(SessionError) {
            step = try state.step(command, numbered: device, limits: limits, at: at)
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
