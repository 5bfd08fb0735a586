import DequeModule
import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel

extension SessionState {
    /// The session's own row as it is now, its head's state encoded only when `withState`.
    func record(id: String, tokenHash: [UInt8], lastUsed: Double, createdAt: Double?, withState: Bool = true) -> SessionRecord {
        SessionRecord(
            id: id, tokenHash: tokenHash, version: version, lastEvent: lastEvent, firstEvent: firstEvent, appVersion: appVersion,
            state: withState ? tree.headRecordBytes(devices: devices, experiments: experiments) : [], lastUsed: lastUsed, createdAt: createdAt)
    }

    /// A head is written again at least every this many versions, so that a reader replays few
    /// blocks, and at least every ``headEventInterval`` events, so that the events after it stay
    /// well within the kept log (at least 1,000 events).
    static let headInterval = 32
    /// See ``headInterval``.
    static let headEventInterval = 256
    /// A stored head that the next change writes again, whatever it changes.
    static let headDue = SessionHead(version: .min / 2, lastEvent: .min / 2)

    /// Everything a new session, made at `now`, writes.
    /// - Parameter asValues: whether to write it as values (``SessionWrite/values``), encoding no record.
    func creationWrite(id: String, tokenHash: [UInt8], now: Double, asValues: Bool = false) -> SessionWrite {
        var write = SessionWrite(
            record: record(id: id, tokenHash: tokenHash, lastUsed: now, createdAt: now, withState: !asValues), expectedLastEvent: nil)
        var values: [(node: String, version: Int, content: ListContent)] = []
        for (node, history) in lists {
            for (version, content) in history.keptVersions {
                if asValues {
                    values.append((node.description, version, content))
                } else {
                    write.newListVersions.append(ListRecord(node: node.description, version: version, body: content.recordBytes))
                }
            }
        }
        if asValues { write.values = WrittenValues(state: self, events: [], lists: values) }
        return write
    }

    /// What a mutation from `old` to this state writes, as a delta: its block of events, new list
    /// versions and what fell out of the kept histories, and a remembered answer; and the head,
    /// when a snapshot is due (see ``headInterval``; always with a checkpoint or an app move, whose
    /// blocks a reader does not replay).
    /// - Parameters:
    ///   - block: the mutation's events.
    ///   - answer: the answer remembered for the mutation's `Idempotency-Key`, if any.
    ///   - storedHead: the session's head in the store; becomes this state's when the write writes it.
    ///   - keptAnswers: how many answers the store keeps for the session.
    ///   - eventHistory: how many events the log keeps.
    ///   - listHistory: how many versions before its current one a list keeps for diffs.
    ///   - asValues: whether to write it as values (``SessionWrite/values``), encoding no record.
    func write(
        from old: SessionState, id: String, tokenHash: [UInt8], lastUsed: Double, createdAt: Double?, block: [SessionEvent],
        answer: IdempotencyCache.Entry?,
        storedHead: inout SessionHead, keptAnswers: Int, eventHistory: Int, listHistory: Int, asValues: Bool = false
    ) -> SessionWrite {
        let writesHead =
            !block.isEmpty
            && (block.last?.checkpoint != nil || version - storedHead.version >= Self.headInterval
                || lastEvent - storedHead.lastEvent >= Self.headEventInterval || block.contains { $0.kind == .appChanged })
        if writesHead { storedHead = SessionHead(version: version, lastEvent: lastEvent) }
        var write = SessionWrite(
            record: record(id: id, tokenHash: tokenHash, lastUsed: lastUsed, createdAt: createdAt, withState: writesHead && !asValues),
            expectedLastEvent: old.lastEvent,
            writesHead: writesHead)
        var listValues: [(node: String, version: Int, content: ListContent)] = []
        if !asValues { write.newEvents = block.map(\.record) }
        // Events that fell out of the kept log go 64 at a time: a delete touches pages that
        // the mutation's own writes do not, so deleting one at every mutation would double them.
        let oldest = oldestKeptEvent(history: eventHistory)
        if oldest / 64 != old.oldestKeptEvent(history: eventHistory) / 64 { write.oldestKeptEvent = oldest }
        if write.oldestKeptEvent != nil { write.retainedListVersions = listHistory }
        for event in block {
            switch event.change {
            case .listChanged(let node, let list, _):
                if list == 1 { write.restartedLists.append(node.description) }
                if let history = lists[node] {
                    if asValues {
                        listValues.append((node.description, history.version, history.current))
                    } else {
                        write.newListVersions.append(ListRecord(node: node.description, version: history.version, body: history.current.recordBytes))
                    }
                }
                if old.lists[node] != nil { write.supersededLists.append((node.description, event.seq)) }
            case .navigation(.removed(let removed)) where old.lists[removed.node] != nil:
                write.supersededLists.append((removed.node.description, event.seq))
            default:
                break
            }
        }
        if let answer {
            write.newAnswers = [answer.record]
            write.keptAnswers = keptAnswers
        }
        if asValues { write.values = WrittenValues(state: self, events: block, lists: listValues) }
        return write
    }

    /// Reads a stored session's state back, its tree served with `app`: the head's state, and the
    /// events after it replayed block by block.
    /// - Parameter events: the stored session's events, read.
    /// - Returns: the state, and the head it was read from (the version and newest event it holds).
    /// - Throws: ``SnapshotError`` when what is stored is not a session of this app.
    static func read(_ stored: StoredSession, events: [SessionEvent], app: AppDescription, limits: StepLimits)
        throws(SnapshotError) -> (state: SessionState, storedHead: SessionHead)
    {
        let record = stored.record
        var (tree, devices, experiments, headFormat) = try CoordinatorTree.head(record.state, app: app)
        var head = SessionHead(version: record.version, lastEvent: record.lastEvent)
        var block: [NavigationEvent] = []
        for event in events where event.seq > record.lastEvent {
            guard event.seq == head.lastEvent + 1 else {
                throw SnapshotError("the events after the session's head skip from \(head.lastEvent) to \(event.seq)")
            }
            switch event.change {
            case .navigation(let change): block.append(change)
            case .listChanged: break
            case .appChanged: throw SnapshotError("event \(event.seq) moves the session to another app version after its head")
            case .exposed(let experiment, let variant): experiments[experiment] = ExperimentMembership(variant: variant, exposedAt: event.at)
            case .unchanged: break
            }
            head = SessionHead(version: event.isFinal ? event.version : head.version, lastEvent: event.seq)
            if event.isFinal {
                tree.replay(block, version: event.version, counters: event.counters)
                if let numbered = event.device { devices[numbered.device] = DeviceMark(seq: numbered.seq, version: event.version) }
                block = []
            }
        }
        guard block.isEmpty else { throw SnapshotError("the session's last block of events has no final event") }
        var lists: [NodeID: ListHistory] = [:]
        var versions: [(version: Int, content: ListContent)] = []
        for (index, list) in stored.lists.enumerated() {
            versions.append((list.version, try ListContent(record: list.body)))
            if index == stored.lists.count - 1 || stored.lists[index + 1].node != list.node {
                guard let node = try? tree.resolve(node: list.node) else { throw SnapshotError("a list of '\(list.node)', which is not a node of the session") }
                let kept = versions
                lists[node] = try Self.storedList { () throws(ListError) in
                    try ListHistory(keptVersions: kept, retainedVersions: limits.listHistory)
                }
                versions = []
            }
        }
        let state = SessionState(
            tree: tree, appVersion: record.appVersion, firstEvent: record.firstEvent, version: head.version, lastEvent: head.lastEvent,
            structuralVersion: structuralVersion(of: events, version: head.version), lists: lists, listHistoryBudget: limits.listHistoryBudget,
            devices: devices, experiments: experiments)
        // A head of a release before deltas is written again by the first change, so that no
        // such head ever lags its events (that release would take it for the whole state).
        let storedHead = headFormat < RecordFormat.deltaHead ? headDue : SessionHead(version: record.version, lastEvent: record.lastEvent)
        return (state, storedHead)
    }

    /// The newest version whose block changed more than UI state, read from the kept tail of the
    /// log (the oldest version it holds when every block there changed only UI state).
    private static func structuralVersion(of events: [SessionEvent], version: Int) -> Int {
        var oldest = version
        for event in events.reversed() {
            if event.kind != .uiChanged && event.kind != .presentationChanged && event.kind != .unchanged { return event.version }
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
