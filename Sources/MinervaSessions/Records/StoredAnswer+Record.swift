import MinervaCoordinator
import MinervaJSON

extension IdempotencyCache.Entry {
    /// The entry as stored (``AnswerRecord``), in record format ``RecordFormat/plain``.
    var record: AnswerRecord {
        var writer = JSONWriter(capacity: 128 + answer.body.count)
        writer.beginObject()
        writer.field("format", RecordFormat.plain)
        writer.field("fingerprint", Int(Int64(bitPattern: key.fingerprint)))
        writer.field("status", answer.status)
        writer.key("headers")
        writer.beginArray()
        for header in answer.headers {
            writer.beginArray()
            writer.string(header.name)
            writer.string(header.value)
            writer.endArray()
        }
        writer.endArray()
        writer.field("body", String(decoding: answer.body, as: UTF8.self))
        writer.endObject()
        return AnswerRecord(key: key.key, storedAt: storedAt, body: writer.bytes)
    }

    /// The members an answer record may carry (`key` and `storedAt` in records of older stores).
    private static let recordKeys: JSONKeys = ["format", "fingerprint", "status", "headers", "body", "key", "storedAt"]

    /// Reads an entry back from its record.
    /// - Throws: ``SnapshotError`` when the record is not a remembered answer.
    init(record: AnswerRecord) throws(SnapshotError) {
        let value = try StoredJSON.parse(record.body)
        _ = try RecordFormat.of(value, kind: "remembered answer '\(record.key.prefix(64))'")  // formats 1 and 2 name an answer's members alike
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.recordKeys)
            var headers: [(name: String, value: String)] = []
            for (index, pair) in try reader.array("headers").enumerated() {
                guard let parts = pair.arrayValue, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue else {
                    throw reader.error("not a [name, value] pair", at: .key("headers"), .index(index))
                }
                headers.append((name, value))
            }
            self.init(
                key: IdempotencyKey(key: record.key, fingerprint: UInt64(bitPattern: Int64(try reader.int("fingerprint")))),
                answer: StoredAnswer(status: try reader.int("status"), headers: headers, body: Array(try reader.string("body").utf8)),
                storedAt: record.storedAt)
        } catch {
            throw SnapshotError("remembered answer '\(record.key.prefix(64))': \(error)")
        }
    }
}
