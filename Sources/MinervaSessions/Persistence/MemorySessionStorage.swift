import Locking
import MinervaModel

/// Sessions kept in this process's memory, gone with it: the store of `--store memory`. It answers
/// every call of ``SessionStorage`` as the durable stores do (the store-contract tests run it
/// beside them), committing inline, within the caller's call. A session core writes it values
/// (``SessionWrite/values``): the state, events and list contents the session holds anyway,
/// shared rather than copied, so that a session costs little more than its live state; a record
/// is encoded only when one is read. Records written as such (by the contract tests) are kept as
/// they are. Unlike a disk, memory is not cheap: each session's history (its events, list
/// versions no longer current and remembered answers) keeps within a byte budget, the oldest going first.
public final class MemorySessionStorage: SessionStorage {
    /// What the store holds of one session.
    private struct Stored {
        /// Its own row; without its head's state when ``head`` holds it.
        var record: SessionRecord
        /// Its head as values, when a core wrote it so: always its current state.
        var head: WrittenValues?
        /// Its events, by `seq`, oldest first.
        var events: [KeptEvent] = []
        /// Its kept list versions: by node, oldest version first, each with the event from which
        /// it is no longer shown (`nil` for a node's current one).
        var lists: [String: [(kept: KeptList, shownUntil: Int?)]] = [:]
        /// Its remembered answers, by key.
        var answers: [String: AnswerRecord] = [:]
        /// What its events, list versions and answers count against its budget.
        var bytes = 0
        /// Its extra tokens, oldest first.
        var grants: [TokenGrant] = []

        /// Its newest event: the head's, or the newest after it.
        var newestEvent: Int {
            max(record.lastEvent, events.last?.seq ?? 0)
        }

        /// Takes a checked write's head: its row over what only a creation sets, and its state as a
        /// value (`nil`: the row carries it).
        mutating func replaceHead(with written: SessionRecord, state: WrittenValues?) {
            record = written.replacingHead(of: record)
            head = state
        }

        /// Its row with its head's state, encoded now when the head is a value.
        var headRecord: SessionRecord {
            guard let head = head?.state else { return record }
            return SessionRecord(
                id: record.id, tokenHash: record.tokenHash, version: record.version, lastEvent: record.lastEvent, firstEvent: record.firstEvent,
                appVersion: record.appVersion, state: head.tree.headRecordBytes(devices: head.devices, experiments: head.experiments), lastUsed: record.lastUsed,
                createdAt: record.createdAt)
        }
    }

    private struct Contents {
        var sessions: [String: Stored] = [:]
        var creations: [String: AnswerRecord] = [:]
        var apps: [String: [UInt8]] = [:]
        /// Experiment rows by session, then experiment, each with its facts.
        var experimentUnits: [String: [String: StoredExperimentUnit]] = [:]
    }

    private let contents = Locked(Contents())
    /// What one session's history may take, in bytes (values counted at their approximate
    /// size); see ``trim(_:budget:)``.
    private let historyBudget: Int

    /// An empty store.
    /// - Parameter historyBudget: the bytes of history (events, list versions, answers; values
    ///   at their approximate size) one session may keep; no limit by default.
    public init(historyBudget: Int = .max) {
        self.historyBudget = historyBudget
    }

    public func loadSession(_ id: String, eventTail: Int) throws(StorageError) -> StoredSession? {
        contents.withLock { contents in
            guard let stored = contents.sessions[id] else { return nil }
            // Every event after the head, and at least the newest `eventTail`.
            let afterHead = Self.firstIndex(in: stored.events, notBefore: stored.record.lastEvent + 1)
            let start = min(afterHead, max(0, stored.events.count - max(0, eventTail)))
            return StoredSession(
                record: stored.headRecord, events: stored.events[start...].map(\.record),
                lists: stored.lists.keys.sorted().flatMap { node in
                    Self.listsToLoad(stored.lists[node] ?? [], after: (stored.events.last?.seq ?? 0) - eventTail).map { $0.record(node: node) }
                },
                answers: stored.answers.values.sorted { $0.storedAt < $1.storedAt })
        }
    }

    public func tokenHash(of id: String) throws(StorageError) -> [UInt8]? {
        contents.withLock { $0.sessions[id]?.record.tokenHash }
    }

    public func events(of id: String, after: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        contents.withLock { contents in
            guard let events = contents.sessions[id]?.events, after < last else { return [] }
            let start = Self.firstIndex(in: events, notBefore: after + 1)
            return events[start...].prefix { $0.seq <= last }.map(\.record)
        }
    }

    public func events(of id: String, rebuilding version: Int, through last: Int) throws(StorageError) -> [EventRecord] {
        contents.withLock { contents in
            guard let events = contents.sessions[id]?.events,
                let start = events.lastIndex(where: { $0.carriesCheckpoint && ($0.version ?? .max) <= max(version, 2) })
            else { return [] }
            return events[start...].prefix { $0.seq <= last }.map(\.record)
        }
    }

    public func listVersion(of id: String, node: String, version: Int) throws(StorageError) -> ListRecord? {
        contents.withLock { $0.sessions[id]?.lists[node]?.first { $0.kept.version == version }?.kept.record(node: node) }
    }

    public func loadAnswer(of id: String, key: String) throws(StorageError) -> AnswerRecord? {
        contents.withLock { $0.sessions[id]?.answers[key] }
    }

    public func loadCreation(_ key: String) throws(StorageError) -> AnswerRecord? {
        contents.withLock { $0.creations[key] }
    }

    public func sessionCount() throws(StorageError) -> Int {
        contents.withLock { $0.sessions.count }
    }

    public func keepAppDescription(_ document: [UInt8], version: String) throws(StorageError) {
        contents.withLock { contents in
            if contents.apps[version] == nil { contents.apps[version] = document }
        }
    }

    public func appDescription(version: String) throws(StorageError) -> [UInt8]? {
        contents.withLock { $0.apps[version] }
    }

    public func commit(_ writes: [StorageWrite]) throws(StorageError) -> [WriteOutcome] {
        contents.withLock { contents in
            writes.map { write in
                switch write {
                case .session(let change):
                    return save(change, in: &contents)
                case .delete(let id):
                    contents.sessions[id] = nil
                    return .committed
                case .touch(let usage):
                    for (id, lastUsed) in usage where contents.sessions[id] != nil {
                        let record = contents.sessions[id]!.record
                        contents.sessions[id]!.record = record.used(at: max(record.lastUsed, lastUsed))
                    }
                    return .committed
                }
            }
        }
    }

    public func experimentUnits(of experiment: String, seed: String) throws(StorageError) -> [StoredExperimentUnit] {
        contents.withLock { contents in
            contents.experimentUnits.values.compactMap { units in units[experiment].flatMap { $0.record.seed == seed ? $0 : nil } }
        }
    }

    public func deleteExperimentUnits(of unit: String) throws(StorageError) -> Int {
        contents.withLock { contents in
            var deleted = 0
            for (session, units) in contents.experimentUnits {
                let kept = units.filter { $0.value.record.unit != unit }
                deleted += units.count - kept.count
                contents.experimentUnits[session] = kept.isEmpty ? nil : kept
            }
            return deleted
        }
    }

    /// Keeps a committed write's experiment rows, and its facts (first and newest time) for the experiments the session has a row of.
    private static func keepExperiments(of change: SessionWrite, in contents: inout Contents) {
        let session = change.record.id
        for record in change.experimentUnits where contents.experimentUnits[session]?[record.experiment] == nil {
            contents.experimentUnits[session, default: [:]][record.experiment] = StoredExperimentUnit(record: record, facts: [:])
        }
        for fact in change.experimentFacts {
            guard let unit = contents.experimentUnits[session]?[fact.experiment] else { continue }
            var facts = unit.facts
            facts[fact.name] = facts[fact.name].map { $0.seeing(fact.at) } ?? FactTimes(first: fact.at, last: fact.at)
            contents.experimentUnits[session]?[fact.experiment] = StoredExperimentUnit(record: unit.record, facts: facts)
        }
    }

    public func grants(of id: String) throws(StorageError) -> [TokenGrant] {
        contents.withLock { $0.sessions[id]?.grants ?? [] }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func grant(of id: String, hash: [UInt8]) throws(StorageError) -> TokenGrant? {
        contents.withLock { contents in contents.sessions[id]?.grants.first { $0.hash == hash } }
    }

    public func addGrant(_ grant: TokenGrant, to id: String, limit: Int) throws(StorageError) -> GrantAddition {
        contents.withLock { contents in
            guard let count = contents.sessions[id]?.grants.count else { return .noSession }
            guard count < limit else { return .full }
            contents.sessions[id]!.grants.append(grant)
            return .added
        }
    }

    public func revokeGrant(_ grantID: String, of id: String) throws(StorageError) -> Bool {
        contents.withLock { contents in
            guard let index = contents.sessions[id]?.grants.firstIndex(where: { $0.id == grantID }) else { return false }
            contents.sessions[id]!.grants.remove(at: index)
            return true
        }
    }

    public func expire(unusedSince cutoff: Double, answersBefore: Double) throws(StorageError) -> [String] {
        contents.withLock { contents in
            let ids = contents.sessions.values.filter { $0.record.lastUsed < cutoff }.map(\.record.id)
            for id in ids { contents.sessions[id] = nil }
            contents.creations = contents.creations.filter { $0.value.storedAt >= answersBefore }
            for id in contents.sessions.keys where contents.sessions[id]!.answers.values.contains(where: { $0.storedAt < answersBefore }) {
                let expired = contents.sessions[id]!.answers.values.filter { $0.storedAt < answersBefore }
                for answer in expired { contents.sessions[id]!.answers[answer.key] = nil }
                contents.sessions[id]!.bytes -= expired.reduce(0) { $0 + $1.body.count }
            }
            return ids
        }
    }

    /// Writes one session's change, as the durable stores do (see ``SessionStorage/commit(_:)``).
    /// The session is found once and changed in place (a copy of what is stored would make
    /// every write below copy it all).
    private func save(_ change: SessionWrite, in contents: inout Contents) -> WriteOutcome {
        let record = change.record
        let index: Dictionary<String, Stored>.Index
        if let expected = change.expectedLastEvent {
            guard let found = contents.sessions.index(forKey: record.id), contents.sessions.values[found].newestEvent == expected else {
                return .conflict
            }
            index = found
            if let values = change.values {
                // A head of values is the current state: always written, as it costs nothing.
                contents.sessions.values[index].replaceHead(with: record, state: values)
            } else if change.writesHead {
                contents.sessions.values[index].replaceHead(with: record, state: nil)
            }
        } else {
            guard contents.sessions[record.id] == nil else { return .conflict }
            if let creation = change.creation {
                if let claimed = contents.creations[creation.key], claimed.storedAt >= change.creationKeysExpireBefore { return .conflict }
                contents.creations[creation.key] = creation
            }
            contents.sessions[record.id] = Stored(record: record, head: change.values)
            index = contents.sessions.index(forKey: record.id)!
        }
        Self.apply(change, to: &contents.sessions.values[index])
        if !change.experimentUnits.isEmpty || !change.experimentFacts.isEmpty { Self.keepExperiments(of: change, in: &contents) }
        if contents.sessions.values[index].bytes > historyBudget { Self.trim(&contents.sessions.values[index], budget: historyBudget) }
        return .committed
    }

    /// Adds a change's events, list versions and answers, and drops what fell out of the kept histories.
    private static func apply(_ change: SessionWrite, to stored: inout Stored) {
        let events = change.values.map { $0.events.map(KeptEvent.keeping) } ?? change.newEvents.map(KeptEvent.record)
        for event in events {
            let index = firstIndex(in: stored.events, notBefore: event.seq)
            if index < stored.events.endIndex, stored.events[index].seq == event.seq {
                stored.bytes -= stored.events[index].byteCount
                stored.events[index] = event
            } else {
                stored.events.insert(event, at: index)
            }
            stored.bytes += event.byteCount
        }
        if let oldest = change.oldestKeptEvent {
            // The newest checkpoint before the kept events stays, with those after it.
            let kept = firstIndex(in: stored.events, notBefore: oldest)
            dropEvents(upTo: stored.events[..<kept].lastIndex(where: \.carriesCheckpoint) ?? kept, of: &stored)
        }
        for (node, at) in change.supersededLists {
            if let index = stored.lists[node]?.firstIndex(where: { $0.shownUntil == nil }) { stored.lists[node]![index].shownUntil = at }
        }
        for node in change.restartedLists {
            stored.bytes -= stored.lists.removeValue(forKey: node)?.reduce(0) { $0 + $1.kept.byteCount } ?? 0
        }
        let lists =
            change.values.map { $0.lists.map { (node: $0.node, kept: KeptList.value(version: $0.version, content: $0.content)) } }
            ?? change.newListVersions.map { (node: $0.node, kept: KeptList.record($0)) }
        for (node, list) in lists {
            var versions = stored.lists[node, default: []]
            if let index = versions.firstIndex(where: { $0.kept.version == list.version }) {
                stored.bytes -= versions.remove(at: index).kept.byteCount
            }
            versions.append((list, nil))
            versions.sort { $0.kept.version < $1.kept.version }
            stored.lists[node] = versions
            stored.bytes += list.byteCount
        }
        if change.oldestKeptEvent != nil { dropUnshownLists(of: &stored, retained: change.retainedListVersions) }
        for answer in change.newAnswers {
            stored.bytes += answer.body.count - (stored.answers.updateValue(answer, forKey: answer.key)?.body.count ?? 0)
        }
        // The oldest go first; a write adds one answer at most, so this drops one at most.
        while !change.newAnswers.isEmpty, stored.answers.count > max(0, change.keptAnswers) { dropOldestAnswer(of: &stored) }
    }

    /// Keeps a session's history within `budget` bytes: list versions no longer current go first, then the oldest events (never those after the head, which its state
    /// is rebuilt from), and remembered answers last (a retry after a lost answer must find its
    /// answer rather than apply its request again). A client asking for what went is told to reload.
    private static func trim(_ stored: inout Stored, budget: Int) {
        while stored.bytes > budget, let node = stored.lists.first(where: { $0.value.first?.shownUntil != nil })?.key {
            stored.bytes -= stored.lists[node]!.removeFirst().kept.byteCount
            if stored.lists[node]!.isEmpty { stored.lists[node] = nil }
        }
        let afterHead = firstIndex(in: stored.events, notBefore: stored.record.lastEvent + 1)
        var dropped = 0
        var bytes = stored.bytes
        while bytes > budget, dropped < afterHead {
            bytes -= stored.events[dropped].byteCount
            dropped += 1
        }
        dropEvents(upTo: dropped, of: &stored)
        while stored.bytes > budget, !stored.answers.isEmpty { dropOldestAnswer(of: &stored) }
    }

    /// What a load reads of a node's list versions: none for a removed node (they stay for time
    /// travel); else its current and previous version, and those replaced after the event `after`.
    private static func listsToLoad(_ versions: [(kept: KeptList, shownUntil: Int?)], after: Int) -> [KeptList] {
        guard let current = versions.last, current.shownUntil == nil else { return [] }
        return versions.filter { $0.kept.version >= current.kept.version - 1 || ($0.shownUntil ?? .max) > after }.map(\.kept)
    }

    /// Drops the list versions that no kept event shows, except a living node's newest `retained`
    /// before its current one.
    private static func dropUnshownLists(of stored: inout Stored, retained: Int) {
        let oldestEvent = stored.events.first?.seq ?? .max
        for (node, versions) in stored.lists {
            let floor = versions.last?.shownUntil == nil ? versions.last!.kept.version - retained : .max
            let kept = versions.filter { version in
                guard let shownUntil = version.shownUntil, shownUntil < oldestEvent else { return true }
                return version.kept.version >= floor
            }
            guard kept.count < versions.count else { continue }
            stored.bytes -= versions.reduce(0) { $0 + $1.kept.byteCount } - kept.reduce(0) { $0 + $1.kept.byteCount }
            stored.lists[node] = kept.isEmpty ? nil : kept
        }
    }

    /// Drops the events before `index`.
    private static func dropEvents(upTo index: Int, of stored: inout Stored) {
        guard index > 0 else { return }
        stored.bytes -= stored.events[..<index].reduce(0) { $0 + $1.byteCount }
        stored.events.removeFirst(index)
    }

    /// Drops the oldest remembered answer.
    private static func dropOldestAnswer(of stored: inout Stored) {
        guard let oldest = stored.answers.min(by: { $0.value.storedAt < $1.value.storedAt }) else { return }
        stored.bytes -= stored.answers.removeValue(forKey: oldest.key)!.body.count
    }

    /// The index of the first event whose `seq` is `seq` or more.
    private static func firstIndex(in events: [KeptEvent], notBefore seq: Int) -> Int {
        var low = 0
        var high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].seq < seq { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
