import MinervaCoordinator
import MinervaJSON

extension CoordinatorTree {
    /// The tree as a session's head record keeps it: `{"format", "tree": <the tree's snapshot>}`,
    /// in format ``RecordFormat/deltaHead`` (the events after it bring it up to date).
    var headRecordBytes: [UInt8] {
        var writer = JSONWriter(capacity: 256 + nodes.count * 96)
        writer.beginObject()
        writer.field("format", RecordFormat.deltaHead)
        writer.key("tree")
        writeSnapshot(into: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// The members a head record may carry.
    private static let headRecordKeys: JSONKeys = ["format", "tree"]

    /// Reads the tree of a session's head record in any format up to ``RecordFormat/current``
    /// (format 1 is the tree's snapshot itself), served with `app`.
    /// - Throws: ``SnapshotError`` when the record is not a head of a session of this app.
    init(headRecord bytes: [UInt8], app: AppDescription) throws(SnapshotError) {
        self = try Self.head(bytes, app: app).tree
    }

    /// Reads a session's head record (see ``init(headRecord:app:)``) and tells its format.
    static func head(_ bytes: [UInt8], app: AppDescription) throws(SnapshotError) -> (tree: CoordinatorTree, format: Int) {
        let value = try StoredJSON.parse(bytes)
        let format = try RecordFormat.of(value, kind: "session head")
        guard format > 1 else { return (try CoordinatorTree(snapshot: value, app: app), format) }
        let tree: JSONValue
        do throws(JSONReadError) {
            tree = .object(try JSONObjectReader(value, keys: Self.headRecordKeys).object("tree"))
        } catch {
            throw SnapshotError("session head: \(error)")
        }
        return (try CoordinatorTree(snapshot: tree, app: app), format)
    }
}
