import MinervaSessions

/// Writes the contract suite commits: records whose contents a store keeps as given.
enum StoreRecords {
    /// A session's row at `version`, its state bytes `v<version>`.
    static func record(_ id: String, version: Int, lastEvent: Int, tokenHash: [UInt8] = [1, 2, 3], lastUsed: Double = 1000) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: tokenHash, version: version, lastEvent: lastEvent, firstEvent: 1, appVersion: "app", state: Array("v\(version)".utf8),
            lastUsed: lastUsed, createdAt: 900)
    }

    /// A new session at version 1, with the answer of its creation's `Idempotency-Key` if given.
    static func creation(
        _ id: String, tokenHash: [UInt8] = [1, 2, 3], lastUsed: Double = 1000, key: AnswerRecord? = nil, keysExpireBefore: Double = -.infinity
    ) -> StorageWrite {
        var write = SessionWrite(record: record(id, version: 1, lastEvent: 0, tokenHash: tokenHash, lastUsed: lastUsed), expectedLastEvent: nil)
        write.creation = key
        write.creationKeysExpireBefore = keysExpireBefore
        return .session(write)
    }

    /// A change after the session's newest event `after`, adding `events` (each event's body its
    /// `seq`); the head it writes, when it does, shows version `events.upperBound + 1`.
    static func change(
        _ id: String, after newest: Int, events: ClosedRange<Int>?, writesHead: Bool = true, checkpoints: Set<Int> = [], oldestKept: Int? = nil,
        answers: [AnswerRecord] = [], keptAnswers: Int = .max, lists: [ListRecord] = [], superseded: [(node: String, at: Int)] = [], restarted: [String] = [], retainedLists: Int = .max,
        versions: [Int: Int] = [:]
    ) -> StorageWrite {
        let last = events?.upperBound ?? newest
        // Another token and first event than the creation's: a change never sets them.
        var write = SessionWrite(
            record: SessionRecord(
                id: id, tokenHash: [7], version: last + 1, lastEvent: last, firstEvent: 99, appVersion: "app", state: Array("v\(last + 1)".utf8),
                lastUsed: 1000, createdAt: nil),
            expectedLastEvent: newest, writesHead: writesHead)
        write.newEvents = (events.map(Array.init) ?? []).map {
            EventRecord(seq: $0, body: [UInt8(truncatingIfNeeded: $0)], carriesCheckpoint: checkpoints.contains($0), version: versions[$0] ?? $0 + 1)
        }
        write.oldestKeptEvent = oldestKept
        write.newAnswers = answers
        write.keptAnswers = keptAnswers
        write.newListVersions = lists
        write.supersededLists = superseded
        write.restartedLists = restarted
        write.retainedListVersions = retainedLists
        return .session(write)
    }

    /// A remembered answer under `key`, stored at `at`.
    static func answer(_ key: String, at: Double) -> AnswerRecord {
        AnswerRecord(key: key, storedAt: at, body: Array("answer \(key)".utf8))
    }
}
