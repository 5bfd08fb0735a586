import MinervaCoordinator
import MinervaJSON
import MinervaList

extension ListContent {
    /// A list version as stored, in record format ``RecordFormat/plain``:
    /// `{"format", "sections": [{"id", "items": [{"id", "kind", "content"}]}]}`.
    /// - Complexity: O(n) in the size of the content.
    var recordBytes: [UInt8] {
        var writer = JSONWriter(capacity: 64 + itemCount * 64)
        writer.beginObject()
        writer.field("format", RecordFormat.plain)
        writer.key("sections")
        writer.beginArray()
        for section in sections {
            writer.beginObject()
            writer.field("id", section.id)
            writer.key("items")
            writer.beginArray()
            for cell in section.items {
                writer.beginObject()
                writer.field("id", cell.id)
                writer.field("kind", cell.kind)
                writer.key("content")
                writer.json(cell.content.json)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// The members a list record may carry.
    private static let recordKeys: JSONKeys = ["format", "sections"]

    /// Reads a stored list version in any format up to ``RecordFormat/current`` (format 1 is the
    /// bare array of sections).
    /// - Throws: ``SnapshotError`` when the record is not a list version.
    init(record bytes: [UInt8]) throws(SnapshotError) {
        let value = try StoredJSON.parse(bytes)
        var sections = value
        if try RecordFormat.of(value, kind: "list version") > 1 {
            do throws(JSONReadError) {
                sections = .array(try JSONObjectReader(value, keys: Self.recordKeys).array("sections"))
            } catch {
                throw SnapshotError("list version: \(error)")
            }
        }
        do throws(ListError) {
            try self.init(snapshot: sections)
        } catch {
            throw SnapshotError("list version: \(error)")
        }
    }
}
