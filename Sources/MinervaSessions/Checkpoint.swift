import MinervaCoordinator
import MinervaJSON
import MinervaModel

/// A session's state at one version, as an event of its log carries it now and then: the tree
/// (flags and pending target included) and the version of each list. Later versions are rebuilt
/// forward from it by replaying the events after it; a restore's result is always one, as is
/// version 1 (carried by the first mutation's first event).
struct Checkpoint: Sendable {
    /// The session version it shows.
    let version: Int
    /// The tree then.
    let tree: CoordinatorTree
    /// Each list's version then, by node.
    let lists: [NodeID: Int]

    /// A checkpoint of `state`, encoded: `{"format"?, "version", "tree", "lists": {"n4": 3}}`;
    /// `format` first, and only when the tree holds what a record format added (a display mode,
    /// held links, an overlay), so that the event carrying it takes that format (``RecordFormat/oldest(holdingCheckpoint:)``).
    static func bytes(of state: SessionState) -> [UInt8] {
        var writer = JSONWriter(capacity: 320 + state.tree.nodes.count * 128)
        writer.beginObject()
        if let format = RecordFormat.oldest(holding: state.tree) { writer.field("format", format) }
        writer.field("version", state.version)
        writer.key("tree")
        state.tree.writeSnapshot(into: &writer)
        writer.key("lists")
        writer.beginObject()
        for (node, history) in state.lists.sorted(by: { $0.key < $1.key }) {
            writer.key(string: node.description)
            writer.int(history.version)
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// Reads a checkpoint back.
    /// - Parameter app: the app the session runs.
    /// - Throws: ``SnapshotError`` when the bytes are not a checkpoint of this app's session.
    init(bytes: [UInt8], app: AppDescription) throws(SnapshotError) {
        let value = try StoredJSON.parse(bytes)
        let snapshot: JSONValue
        let listVersions: [String: JSONValue]
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: ["format", "version", "tree", "lists"])
            version = try reader.int("version")
            guard let tree = reader.value("tree") else { throw reader.error("field 'tree' is required", at: .key("tree")) }
            snapshot = tree
            listVersions = try reader.optionalObject("lists") ?? [:]
        } catch {
            throw SnapshotError("checkpoint: \(error)")
        }
        tree = try CoordinatorTree(snapshot: snapshot, app: app)
        var lists: [NodeID: Int] = [:]
        for (key, list) in listVersions {
            guard let node = try? tree.resolve(node: key), case .int(let number) = list else {
                throw SnapshotError("checkpoint: the list of '\(key.prefix(64))' is not a list version of a node of the session")
            }
            lists[node] = number
        }
        self.lists = lists
    }
}
