import Crypto

/// How the answer to a keyed `POST /v1/sessions` is stored: it carries the new session's
/// bearer token, so the store keeps it encrypted under a key derived from the client's
/// `Idempotency-Key`, and that key only as a hash. Whoever reads the store learns no token;
/// whoever knows the key can have the answer again, as the contract promises.
public enum CreationSealing {
    /// The stored record of a creation answer (a record whose key is the client's key).
    /// - Throws: when the encryption fails.
    public static func seal(_ record: AnswerRecord) throws -> AnswerRecord {
        let box = try AES.GCM.seal(record.body, using: secret(for: record.key))
        guard let combined = box.combined else { throw StorageError("AES-GCM gave no combined box") }
        return AnswerRecord(key: storedKey(record.key), storedAt: record.storedAt, body: Array(combined))
    }

    /// The creation answer of `key`, from its stored record.
    static func open(_ record: AnswerRecord, key: String) throws -> AnswerRecord {
        let body = try AES.GCM.open(AES.GCM.SealedBox(combined: record.body), using: secret(for: key))
        return AnswerRecord(key: key, storedAt: record.storedAt, body: Array(body))
    }

    /// What the store knows the key by.
    static func storedKey(_ key: String) -> String {
        hex(SHA256.hash(data: Array("minerva creation key \(key)".utf8)))
    }

    private static func secret(for key: String) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Array("minerva creation answer \(key)".utf8)))
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
