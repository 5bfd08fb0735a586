import MinervaCoordinator
import MinervaJSON
import MinervaModel

extension CoordinatorTree {
    /// The tree as a session's head record keeps it: `{"format", "tree": <the tree's snapshot>,
    /// "devices"?}`, in format ``RecordFormat/deltaHead`` (the events after it bring it up to
    /// date), ``RecordFormat/devices`` when it carries devices' marks, or the format a tree that
    /// shows an overlay, holds links or says a display mode needs (``RecordFormat/oldest(holding:)``).
    func headRecordBytes(devices: [String: DeviceMark] = [:]) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + nodes.count * 96 + devices.count * 64)
        writer.beginObject()
        writer.field("format", RecordFormat.oldest(holding: self) ?? (devices.isEmpty ? RecordFormat.deltaHead : RecordFormat.devices))
        writer.key("tree")
        writeSnapshot(into: &writer)
        if !devices.isEmpty {
            writer.key("devices")
            DeviceMark.write(devices, into: &writer)
        }
        writer.endObject()
        return writer.bytes
    }

    /// The members a head record may carry.
    private static let headRecordKeys: JSONKeys = ["format", "tree", "devices"]

    /// Reads the tree of a session's head record in any format up to ``RecordFormat/current``
    /// (format 1 is the tree's snapshot itself), served with `app`.
    /// - Throws: ``SnapshotError`` when the record is not a head of a session of this app.
    init(headRecord bytes: [UInt8], app: AppDescription) throws(SnapshotError) {
        self = try Self.head(bytes, app: app).tree
    }

    /// Reads a session's head record (see ``init(headRecord:app:)``): its tree, its devices'
    /// marks, and its format.
    static func head(_ bytes: [UInt8], app: AppDescription) throws(SnapshotError)
        -> (tree: CoordinatorTree, devices: [String: DeviceMark], format: Int)
    {
        let value = try StoredJSON.parse(bytes)
        let format = try RecordFormat.of(value, kind: "session head")
        guard format > 1 else { return (try CoordinatorTree(snapshot: value, app: app), [:], format) }
        let tree: JSONValue
        let devices: [String: DeviceMark]
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.headRecordKeys)
            tree = .object(try reader.object("tree"))
            devices = try DeviceMark.read("devices", of: reader)
        } catch {
            throw SnapshotError("session head: \(error)")
        }
        return (try CoordinatorTree(snapshot: tree, app: app), devices, format)
    }
}
