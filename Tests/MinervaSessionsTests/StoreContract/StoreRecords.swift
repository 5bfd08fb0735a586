import MinervaSessions

/// Writes the contract suite commits: records whose contents a store keeps as given.
enum StoreRecords {
    /// A session's row at `version`, its state bytes `v<version>`.
    static func record(_ id: String, version: Int, lastEvent: Int, tokenHash: [UInt8] = [1, 2, 3], lastUsed: Double = 1000) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: tokenHash, version: version, lastEvent: lastEvent, firstEvent: 1, appVersion: "app", state: Array("v\(version)".utf8),
            lastUsed: lastUsed)
    }

    /// A new session at version 1, with the answer of its creation's `Idempotency-Key` if given.
    static func creation(
        _ id: String, tokenHash: [UInt8] = [1, 2, 3], lastUsed: Double = 1000, key: AnswerRecord? = nil, keysExpireBefore: Double = -.infinity
    ) -> StorageWrite {
        var write = SessionWrite(record: record(id, version: 1, lastEvent: 0, tokenHash: tokenHash, lastUsed: lastUsed), expectedVersion: nil)
        write.creation = key
        write.creationKeysExpireBefore = keysExpireBefore
        return .session(write)
    }

    /// A change from `version` to the next, adding `events` (each event's body its `seq`).
    static func change(
        _ id: String, from version: Int, events: ClosedRange<Int>, checkpoints: Set<Int> = [], oldestKept: Int? = nil, answers: [AnswerRecord] = [],
        keptAnswers: Int = .max, lists: [ListRecord] = [], keptLists: [(node: String, oldest: Int?)] = []
    ) -> StorageWrite {
        // Another token and first event than the creation's: a change never sets them.
        var write = SessionWrite(
            record: SessionRecord(
                id: id, tokenHash: [7], version: version + 1, lastEvent: events.upperBound, firstEvent: 99, appVersion: "app",
                state: Array("v\(version + 1)".utf8), lastUsed: 1000),
            expectedVersion: version)
        write.newEvents = events.map { EventRecord(seq: $0, body: [UInt8(truncatingIfNeeded: $0)], carriesCheckpoint: checkpoints.contains($0)) }
        write.oldestKeptEvent = oldestKept
        write.newAnswers = answers
        write.keptAnswers = keptAnswers
        write.newListVersions = lists
        write.keptListVersions = keptLists
        return .session(write)
    }

    /// A remembered answer under `key`, stored at `at`.
    static func answer(_ key: String, at: Double) -> AnswerRecord {
        AnswerRecord(key: key, storedAt: at, body: Array("answer \(key)".utf8))
    }
}
