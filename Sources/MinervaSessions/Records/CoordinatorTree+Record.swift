import MinervaCoordinator
import MinervaJSON
import MinervaModel

extension CoordinatorTree {
    /// The tree as a session's head record keeps it: `{"format", "tree": <the tree's snapshot>,
    /// "devices"?, "experiments"?}`, in format ``RecordFormat/deltaHead`` (the events after it
    /// bring it up to date), ``RecordFormat/devices`` when it carries devices' marks,
    /// ``RecordFormat/experiments`` when it carries experiments, or the format a tree that shows an
    /// overlay, holds links or says a display mode needs (``RecordFormat/oldest(holding:)``).
    func headRecordBytes(devices: [String: DeviceMark] = [:], experiments: [String: ExperimentMembership] = [:]) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + nodes.count * 96 + devices.count * 64 + experiments.count * 64)
        writer.beginObject()
        let format = RecordFormat.oldest(holding: self) ?? (devices.isEmpty ? RecordFormat.deltaHead : RecordFormat.devices)
        writer.field("format", experiments.isEmpty ? format : max(format, RecordFormat.experiments))
        writer.key("tree")
        writeSnapshot(into: &writer)
        if !devices.isEmpty {
            writer.key("devices")
            DeviceMark.write(devices, into: &writer)
        }
        if !experiments.isEmpty {
            writer.key("experiments")
            ExperimentMembership.write(experiments, into: &writer)
        }
        writer.endObject()
        return writer.bytes
    }

    /// The members a head record may carry.
    private static let headRecordKeys: JSONKeys = ["format", "tree", "devices", "experiments"]

    /// Reads the tree of a session's head record in any format up to ``RecordFormat/current``
    /// (format 1 is the tree's snapshot itself), served with `app`.
    /// - Throws: ``SnapshotError`` when the record is not a head of a session of this app.
    init(headRecord bytes: [UInt8], app: AppDescription) throws(SnapshotError) {
        self = try Self.head(bytes, app: app).tree
    }

    /// Reads a session's head record (see ``init(headRecord:app:)``): its tree, its devices'
    /// marks, its experiments and its format.
    static func head(_ bytes: [UInt8], app: AppDescription) throws(SnapshotError)
        -> (tree: CoordinatorTree, devices: [String: DeviceMark], experiments: [String: ExperimentMembership], format: Int)
    {
        let value = try StoredJSON.parse(bytes)
        let format = try RecordFormat.of(value, kind: "session head")
        guard format > 1 else { return (try CoordinatorTree(snapshot: value, app: app), [:], [:], format) }
        let tree: JSONValue
        let devices: [String: DeviceMark]
        let experiments: [String: ExperimentMembership]
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.headRecordKeys)
            tree = .object(try reader.object("tree"))
            devices = try DeviceMark.read("devices", of: reader)
            experiments = try ExperimentMembership.read("experiments", of: reader)
        } catch {
            throw SnapshotError("session head: \(error)")
        }
        return (try CoordinatorTree(snapshot: tree, app: app), devices, experiments, format)
    }
}
