import DequeModule
import MinervaCoordinator
import MinervaJSON
import MinervaList

extension SessionState {
    /// The session's own row as it is now.
    func record(id: String, tokenHash: [UInt8], lastUsed: Double) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: tokenHash, version: version, lastEvent: lastEvent, firstEvent: firstEvent, appVersion: appVersion,
            state: tree.headRecordBytes, lastUsed: lastUsed)
    }

    /// Everything a new session writes.
    func creationWrite(id: String, tokenHash: [UInt8], lastUsed: Double) -> SessionWrite {
        var write = SessionWrite(record: record(id: id, tokenHash: tokenHash, lastUsed: lastUsed), expectedVersion: nil)
        for (node, history) in lists {
            for (version, content) in history.keptVersions {
                write.newListVersions.append(ListRecord(node: node.description, version: version, body: content.recordBytes))
            }
        }
        return write
    }

    /// What a mutation from `old` to this state writes: the row, its block of events, new list
    /// versions and what fell out of the kept histories, and a remembered answer.
    /// - Parameters:
    ///   - block: the mutation's events.
    ///   - answer: the answer remembered for the mutation's `Idempotency-Key`, if any.
    ///   - keptAnswers: how many answers the store keeps for the session.
    ///   - eventHistory: how many events the log keeps.
    func write(
        from old: SessionState, id: String, tokenHash: [UInt8], lastUsed: Double, block: [SessionEvent], answer: IdempotencyCache.Entry?,
        keptAnswers: Int, eventHistory: Int
    ) -> SessionWrite {
        var write = SessionWrite(record: record(id: id, tokenHash: tokenHash, lastUsed: lastUsed), expectedVersion: old.version)
        write.newEvents = block.map(\.record)
        // Events that fell out of the kept log go 64 at a time: a delete touches pages that
        // the mutation's own writes do not, so deleting one at every mutation would double them.
        let oldest = oldestKeptEvent(history: eventHistory)
        if oldest / 64 != old.oldestKeptEvent(history: eventHistory) / 64 { write.oldestKeptEvent = oldest }
        for (node, history) in lists where old.lists[node]?.version != history.version {
            write.newListVersions.append(ListRecord(node: node.description, version: history.version, body: history.current.recordBytes))
            // The store keeps every version a diff may start from, also those memory forgot.
            write.keptListVersions.append((node.description, max(1, history.version - history.retainedVersions)))
        }
        for node in old.lists.keys where lists[node] == nil {
            write.keptListVersions.append((node.description, nil))
        }
        if let answer {
            write.newAnswers = [answer.record]
            write.keptAnswers = keptAnswers
        }
        return write
    }

    /// Reads a stored session's state back, its tree served with `app`.
    /// - Throws: ``SnapshotError`` when what is stored is not a session of this app.
    init(stored: StoredSession, app: AppDescription, configuration: SessionConfiguration, listHistoryBudget: Int) throws(SnapshotError) {
        let record = stored.record
        let tree = try CoordinatorTree(headRecord: record.state, app: app)
        self.init(tree: tree, appVersion: record.appVersion, firstEvent: record.firstEvent)
        version = record.version
        structuralVersion = try Self.structuralVersion(of: stored.events, version: record.version)
        lastEvent = record.lastEvent
        var versions: [(version: Int, content: ListContent)] = []
        for (index, list) in stored.lists.enumerated() {
            versions.append((list.version, try ListContent(record: list.body)))
            if index == stored.lists.count - 1 || stored.lists[index + 1].node != list.node {
                guard let node = NodeID(list.node) else { throw SnapshotError("'\(list.node)' is not a node id") }
                let kept = versions
                lists[node] = try Self.storedList { () throws(ListError) in
                    try ListHistory(keptVersions: kept, retainedVersions: configuration.listHistory)
                }
                versions = []
            }
        }
        byteCount += lists.values.reduce(0) { $0 + $1.current.byteCount }
        trimListHistory(budget: listHistoryBudget)
    }

    /// The newest version whose block changed more than UI state, read from the kept tail of the
    /// log (the oldest version it holds when every block there changed only UI state).
    private static func structuralVersion(of events: [EventRecord], version: Int) throws(SnapshotError) -> Int {
        var oldest = version
        for record in events.reversed() {
            let event = try SessionEvent(record: record)
            if event.kind != .uiChanged && event.kind != .presentationChanged { return event.version }
            oldest = event.version
        }
        return events.isEmpty ? version : oldest
    }

    /// Runs `read` (which builds a list history from stored versions), its errors as snapshot errors.
    private static func storedList<T>(_ read: () throws(ListError) -> T) throws(SnapshotError) -> T {
        do {
            return try read()
        } catch {
            throw SnapshotError("stored list: \(error)")
        }
    }
}
