import Foundation
import MinervaCoordinator
import MinervaJSON
import MinervaModel

/// A session mirrored with the navigation model itself: the state document read into the
/// model's state, and each change's block of events applied with the model's replay
/// (``MinervaModel/SessionState/replay(_:)``), the one the server rebuilds versions with. The
/// document it then gives is written by the model's ``MinervaModel/StateDocument``, as the
/// server writes it.
///
/// What the events do not carry it reports, and ``SessionMirror`` reads exactly that: a list's
/// cells (the lists a block changed), or the whole state when the block moved the session to
/// another app version, brought nodes back by a restore, or holds an event type this client does
/// not know (``Unmirrorable``).
struct MirrorReplay {
    /// A block the mirror cannot apply from its events: read the state instead.
    struct Unmirrorable: Error {}

    /// An app description as the model reads it.
    typealias ModelApp = MinervaCoordinator.AppDescription

    /// The app description of the session's version, which the model runs.
    let app: MinervaCoordinator.AppDescription
    /// The session's id, which its documents carry.
    private let id: String
    /// The session's state as the model holds it.
    private var model: MinervaModel.SessionState
    /// Each node's list as last delivered, by node id.
    private var lists: [String: NodeList] = [:]

    /// Reads a state document into the model's state, for the app of its version.
    /// - Throws: ``Unmirrorable`` when the document is not one of `app` (a newer server's).
    init(_ state: SessionState, app: MinervaCoordinator.AppDescription) throws(Unmirrorable) {
        self.app = app
        id = state.id
        do {
            model = try MinervaModel.SessionState(document: JSONParser.parse(Array(JSONEncoder().encode(state))), app: app)
        } catch {
            throw Unmirrorable()
        }
        keepLists(of: state.root)
    }

    /// Reads the app description the server answers (`GET /v1/app`) into the model's.
    /// - Throws: ``Unmirrorable`` when the model cannot read it (a newer server's).
    static func modelApp(_ app: AppDescription) throws(Unmirrorable) -> MinervaCoordinator.AppDescription {
        do {
            return try MinervaCoordinator.AppDescription.parse(Array(JSONEncoder().encode(app)), source: "GET /v1/app", served: true)
        } catch {
            throw Unmirrorable()
        }
    }

    /// Applies one change's block of events with the model's replay.
    ///
    /// A node added with an id below the state's `nextNode` came back by a restore (ids are never
    /// made twice), and its `added` event does not say where it stood: that block is read whole.
    /// - Parameter block: the events of one version, the last one final.
    /// - Returns: the lists the block changed, whose cells are to be read.
    /// - Throws: ``Unmirrorable`` when the events do not carry what the state shows.
    mutating func apply(_ block: [Event]) throws(Unmirrorable) -> [Logged<ListChanged>] {
        guard let last = block.last, last.isFinal, last.focus != nil else { throw Unmirrorable() }
        var changedLists: [Logged<ListChanged>] = []
        var events: [MinervaModel.SessionEvent] = []
        events.reserveCapacity(block.count)
        for event in block {
            switch event {
            case .removed(let removed) where removed.reason == .restore: throw Unmirrorable()
            case .added(let added) where Self.number(of: added.node) < model.tree.idCounters.nextNode: throw Unmirrorable()
            case .appChanged, .unknown: throw Unmirrorable()
            case .listChanged(let changed): changedLists.append(changed)
            default: break
            }
            events.append(try Self.modelEvent(event, app: app))
        }
        model.replay(events)
        guard model.focus.description == last.focus else { throw Unmirrorable() }
        return changedLists
    }

    /// The state document after the last block, each node with its list: one read after the
    /// block, or the one it had.
    /// - Parameter read: the lists the block changed, read, by node id.
    mutating func state(with read: [String: NodeList]) throws(Unmirrorable) -> SessionState {
        var state: SessionState
        do {
            state = try JSONDecoder().decode(SessionState.self, from: Data(StateDocument.encode(sessionID: id, state: model, lists: .none)))
        } catch {
            throw Unmirrorable()
        }
        var kept: [String: NodeList] = [:]
        state.root = withLists(state.root, read: read, kept: &kept)
        lists = kept
        return state
    }

    /// The number of a node id (`n12` → 12).
    static func number(of node: String) -> Int {
        Int(node.dropFirst()) ?? 0
    }

    // MARK: - Between the client's values and the model's

    /// An event as the model reads it: written as the API shows it, then read.
    private static func modelEvent(_ event: Event, app: MinervaCoordinator.AppDescription) throws(Unmirrorable) -> MinervaModel.SessionEvent {
        do {
            return try MinervaModel.SessionEvent(wire: JSONParser.parse(Array(eventEncoder.encode(event))), app: app)
        } catch {
            throw Unmirrorable()
        }
    }

    /// Writes events as the server does: `at` as an RFC 3339 timestamp with milliseconds.
    private static let eventEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.rfc3339(milliseconds: Int((date.timeIntervalSince1970 * 1000).rounded())))
        }
        return encoder
    }()

    /// Keeps the lists of a subtree.
    private mutating func keepLists(of node: Node) {
        if let list = node.list { lists[node.id] = list }
        for child in node.children { keepLists(of: child) }
    }

    /// A subtree with each node's list put back (the one read, or the one it had), each kept.
    private func withLists(_ node: Node, read: [String: NodeList], kept: inout [String: NodeList]) -> Node {
        var node = node
        node.list = read[node.id] ?? lists[node.id]
        if let list = node.list { kept[node.id] = list }
        node.children = node.children.map { withLists($0, read: read, kept: &kept) }
        return node
    }
}
