import DequeModule
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaList

/// A session's state as stored: the tree and version in one record, and each event, list and
/// remembered answer in records of their own (``SessionChange`` says which ones a mutation wrote).
enum SessionSnapshot {
    /// The tree and version as JSON bytes.
    static func encode(_ state: SessionState) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + state.tree.nodes.count * 128)
        writer.beginObject()
        writer.key("tree")
        state.tree.writeSnapshot(into: &writer)
        writer.field("version", state.version)
        writer.endObject()
        return writer.bytes
    }

    /// The whole session as one change that replaces whatever storage holds for it.
    static func wholeChange(of session: Session, _ state: SessionState, lastUsed: Double) -> SessionChange {
        var change = SessionChange(
            id: session.id, tokenHash: session.tokenHash, version: state.version, snapshot: encode(state), lastUsed: lastUsed)
        change.replacesAll = true
        change.newEvents = state.events.map { ($0.seq, bytes(eventSnapshot($0))) }
        for (node, history) in state.lists {
            for (version, content) in history.keptVersions {
                change.newListVersions.append((node.description, version, bytes(of: content)))
            }
        }
        change.newAnswers = state.idempotency.all.map { ($0.key, $0.storedAt, bytes(entrySnapshot($0))) }
        return change
    }

    /// What a mutation changed from `old` to `new`.
    /// - Parameters:
    ///   - rememberedKey: the `Idempotency-Key` whose answer the mutation remembered, if any.
    ///   - forgottenKeys: the keys the answer cache forgot meanwhile.
    static func change(
        of session: Session, from old: SessionState, to new: SessionState, rememberedKey: String?, forgottenKeys: [String],
        lastUsed: Double
    ) -> SessionChange {
        var change = SessionChange(id: session.id, tokenHash: session.tokenHash, version: new.version, snapshot: encode(new), lastUsed: lastUsed)
        let lastStored = old.events.last?.seq ?? Int.min
        var firstNew = new.events.endIndex
        while firstNew > new.events.startIndex, new.events[firstNew - 1].seq > lastStored { firstNew -= 1 }
        change.newEvents = new.events[firstNew...].map { ($0.seq, bytes(eventSnapshot($0))) }
        if new.events.first?.seq != old.events.first?.seq { change.oldestEvent = new.events.first?.seq }
        for (node, history) in new.lists where old.lists[node]?.version != history.version {
            change.newListVersions.append((node.description, history.version, bytes(of: history.current)))
            change.keptListVersions.append((node.description, history.oldestKeptVersion))
        }
        for node in old.lists.keys where new.lists[node] == nil {
            change.keptListVersions.append((node.description, nil))
        }
        if let rememberedKey, let entry = new.idempotency.entry(for: rememberedKey) {
            change.newAnswers = [(entry.key, entry.storedAt, bytes(entrySnapshot(entry)))]
        }
        change.forgottenAnswers = forgottenKeys
        return change
    }

    /// Reads a state back.
    /// - Returns: the state, and whether it was stored in the older format that kept events,
    ///   lists and answers inside the snapshot (it should then be written whole again).
    /// - Throws: ``SnapshotError`` when the bytes are not a stored session for this app.
    static func decode(
        _ stored: StoredSession, app: AppDescription, configuration: ServerConfiguration
    ) throws(SnapshotError) -> (state: SessionState, olderFormat: Bool) {
        let reader = SnapshotReader(try parse(stored.snapshot))
        guard let treeValue = reader.member("tree") else { throw SnapshotError("missing 'tree'") }
        var state = SessionState(
            tree: try CoordinatorTree(snapshot: treeValue, app: app), eventHistory: configuration.eventHistory,
            idempotency: IdempotencyCache(capacity: configuration.idempotencyCapacity, lifetime: configuration.idempotencyLifetime))
        state.version = try reader.int("version")
        let olderFormat = reader.member("events") != nil
        var events = olderFormat ? try reader.array("events") : []
        for bytes in stored.events { events.append(try parse(bytes)) }
        for eventValue in events.suffix(configuration.eventHistory) {
            state.events.append(try event(eventValue))
        }
        if olderFormat {
            for (node, historyValue) in try reader.object("lists") {
                state.lists[try nodeID(node)] = try storedList { () throws(ListError) in try ListHistory(snapshot: historyValue) }
            }
        }
        var versions: [(version: Int, content: ListContent)] = []
        for (index, record) in stored.listVersions.enumerated() {
            let value = try parse(record.content)
            versions.append((record.version, try storedList { () throws(ListError) in try ListContent(snapshot: value) }))
            if index == stored.listVersions.count - 1 || stored.listVersions[index + 1].node != record.node {
                let kept = versions
                state.lists[try nodeID(record.node)] = try storedList { () throws(ListError) in
                    try ListHistory(keptVersions: kept, retainedVersions: configuration.listHistory)
                }
                versions = []
            }
        }
        var answers = olderFormat ? try reader.array("idempotency") : []
        for bytes in stored.answers { answers.append(try parse(bytes)) }
        for entryValue in answers {
            let entry = SnapshotReader(entryValue)
            var headers: [(name: String, value: String)] = []
            for pair in try entry.array("headers") {
                guard let parts = pair.arrayValue, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue else {
                    throw SnapshotError("malformed stored header")
                }
                headers.append((name, value))
            }
            let response = HTTPResponse(status: try entry.int("status"), headers: headers, body: Array(try entry.string("body").utf8))
            state.idempotency.remember(
                try entry.string("key"), fingerprint: UInt64(bitPattern: Int64(try entry.int("fingerprint"))), response: response,
                now: Double(try entry.int("storedAt")) / 1000)
        }
        return (state, olderFormat)
    }

    private static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(value)
        return writer.bytes
    }

    private static func bytes(of content: ListContent) -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + content.itemCount * 64)
        content.write(into: &writer)
        return writer.bytes
    }

    /// Reads a stored list, its errors as snapshot errors.
    private static func storedList<T>(_ read: () throws(ListError) -> T) throws(SnapshotError) -> T {
        do {
            return try read()
        } catch {
            throw SnapshotError("stored list: \(error)")
        }
    }

    private static func parse(_ bytes: [UInt8]) throws(SnapshotError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, maximumDepth: JSONParser.maximumDepth + 32)
        } catch {
            throw SnapshotError("not JSON: \(error)")
        }
    }

    private static func eventSnapshot(_ event: NavigationEvent) -> JSONValue {
        var members: [String: JSONValue] = ["seq": .int(event.seq), "node": .string(event.node.description), "screen": .string(event.screen)]
        switch event.kind {
        case .removed(let reason):
            members["reason"] = .string(reason.rawValue)
        case .finished(let parent, let result):
            members["parent"] = .string(parent.description)
            members["result"] = result
        }
        return .object(members)
    }

    private static func event(_ value: JSONValue) throws(SnapshotError) -> NavigationEvent {
        let reader = SnapshotReader(value)
        let kind: NavigationEvent.Kind
        if let reason = try reader.optionalString("reason") {
            guard let removal = NavigationEvent.RemovalReason(rawValue: reason) else { throw SnapshotError("unknown reason \(reason)") }
            kind = .removed(removal)
        } else {
            kind = .finished(parent: try nodeID(try reader.string("parent")), result: reader.member("result") ?? .null)
        }
        return NavigationEvent(
            seq: try reader.int("seq"), kind: kind, node: try nodeID(try reader.string("node")), screen: try reader.string("screen"))
    }

    private static func nodeID(_ text: String) throws(SnapshotError) -> NodeID {
        guard let id = NodeID(text) else { throw SnapshotError("'\(text)' is not a node id") }
        return id
    }

    private static func entrySnapshot(_ entry: IdempotencyCache.Entry) -> JSONValue {
        [
            "key": .string(entry.key), "fingerprint": .int(Int(Int64(bitPattern: entry.fingerprint))),
            "status": .int(entry.response.status),
            "headers": .array(entry.response.headers.map { [.string($0.name), .string($0.value)] }),
            "body": .string(String(decoding: entry.response.body, as: UTF8.self)), "storedAt": .int(Int(entry.storedAt * 1000)),
        ]
    }
}
