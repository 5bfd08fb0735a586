import Foundation
import MinervaCoordinator
import MinervaJSON
import MinervaModel

/// A session's state as the navigation model holds it on the device, with what a step needs
/// besides: the app description of its version and the server's limits. A step on it is the
/// server's own step (``MinervaModel/SessionState/step(_:numbered:limits:at:)``), so its next
/// state is the one the server answers when nothing else changed the session meanwhile.
struct SessionModel: Sendable {
    /// The session's id, which its documents carry.
    let id: String
    /// The app description of the state's version, which the model runs.
    let app: MinervaCoordinator.AppDescription
    /// What the server checks every change against.
    let limits: StepLimits
    /// The state.
    let state: MinervaModel.SessionState

    /// Reads a state document (with its lists' cells) into the model.
    /// - Throws: ``MirrorReplay/Unmirrorable`` when the document is not one of `app` (a newer server's).
    init(_ document: SessionState, app: MinervaCoordinator.AppDescription, limits: StepLimits) throws(MirrorReplay.Unmirrorable) {
        id = document.id
        self.app = app
        self.limits = limits
        do {
            state = try MinervaModel.SessionState(
                document: JSONParser.parse(Array(JSONEncoder().encode(document))), app: app, listHistory: limits.listHistory)
        } catch {
            throw MirrorReplay.Unmirrorable()
        }
    }

    private init(id: String, app: MinervaCoordinator.AppDescription, limits: StepLimits, state: MinervaModel.SessionState) {
        self.id = id
        self.app = app
        self.limits = limits
        self.state = state
    }

    /// The model after one change, numbered by the device, made at `time`, and the change's block of events.
    /// - Throws: ``MinervaError`` with the status and code the server answers the same refusal with.
    func step(_ request: ChangeRequest, numbered: DeviceChange, at time: Date) throws(MinervaError) -> (next: SessionModel, block: [MinervaModel.SessionEvent]) {
        let command = try request.command()
        let step: MinervaModel.SessionState.Step?
        do {
            step = try state.step(command, numbered: numbered, limits: limits, at: Int((time.timeIntervalSince1970 * 1000).rounded()))
        } catch {
            throw MinervaError(refusal: error)
        }
        // A numbered change always makes a block (of one `unchanged` event when it changes nothing).
        guard let step else { return (self, []) }
        return (SessionModel(id: id, app: app, limits: limits, state: step.next), step.block)
    }

    /// A block of the model's events as the API shows them (``Event``), written and read as the
    /// server writes its change log.
    static func events(_ block: [MinervaModel.SessionEvent]) -> [Event] {
        block.compactMap { event in
            var writer = JSONWriter(capacity: 256)
            event.writeWire(into: &writer)
            return try? Event.wireDecoder.decode(Event.self, from: Data(writer.bytes))
        }
    }

    /// The state document, as the server writes it; each list the change left as it was keeps the
    /// diff `previous` delivered with it (a document read does not know a list's earlier versions).
    func document(after previous: SessionState) -> SessionState {
        // The model writes every document it holds: decoding one cannot fail.
        guard var document = try? JSONDecoder().decode(SessionState.self, from: Data(StateDocument.encode(sessionID: id, state: state))) else {
            return previous
        }
        var kept: [String: NodeList] = [:]
        Self.collectLists(of: previous.root, into: &kept)
        document.root = Self.keepingLists(document.root, kept)
        return document
    }

    private static func collectLists(of node: Node, into lists: inout [String: NodeList]) {
        if let list = node.list { lists[node.id] = list }
        for child in node.children { collectLists(of: child, into: &lists) }
    }

    private static func keepingLists(_ node: Node, _ kept: [String: NodeList]) -> Node {
        var node = node
        if let list = node.list, let previous = kept[node.id], previous.version == list.version { node.list = previous }
        node.children = node.children.map { keepingLists($0, kept) }
        return node
    }
}

extension StepLimits {
    /// The limits a server publishes (`GET /v1/server`), as the model checks them.
    init(_ limits: ServerInfo.Limits) {
        self.init(
            maxListItems: limits.maxListItems, maxListBytes: limits.maxListBytes, maxNodes: limits.maxNodes, maxParamBytes: limits.maxParamBytes,
            maxUIBytes: limits.maxUIBytes, maxSessionBytes: limits.maxSessionBytes, listHistory: limits.listHistory,
            listHistoryBudget: limits.listHistoryBudget)
    }
}
