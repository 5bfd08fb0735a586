import DequeModule
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaList

/// A session's whole state as stored: tree, version, events, lists and remembered answers.
enum SessionSnapshot {
    /// The state as JSON bytes.
    static func encode(_ state: SessionState) -> [UInt8] {
        // Keys in sorted order, as `JSONWriter.value` would write them; the lists write their
        // cells' content as the JSON text they keep it in.
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        writer.key("events")
        writer.value(.array(state.events.map(eventSnapshot)))
        writer.key("idempotency")
        writer.value(.array(state.idempotency.all.map(entrySnapshot)))
        writer.key("lists")
        writer.beginObject()
        for (node, history) in state.lists.map({ ($0.key.description, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            writer.key(node)
            history.writeSnapshot(into: &writer)
        }
        writer.endObject()
        writer.key("tree")
        writer.value(state.tree.snapshot)
        writer.field("version", state.version)
        writer.endObject()
        return writer.bytes
    }

    /// Reads a state back.
    /// - Throws: ``SnapshotError`` when the bytes are not a stored session for this app.
    static func decode(_ bytes: [UInt8], app: AppDescription, configuration: ServerConfiguration) throws(SnapshotError) -> SessionState {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: JSONParser.maximumDepth + 32)
        } catch {
            throw SnapshotError("not JSON: \(error)")
        }
        let reader = SnapshotReader(value)
        guard let treeValue = reader.member("tree") else { throw SnapshotError("missing 'tree'") }
        var state = SessionState(
            tree: try CoordinatorTree(snapshot: treeValue, app: app), eventHistory: configuration.eventHistory,
            idempotency: IdempotencyCache(capacity: configuration.idempotencyCapacity, lifetime: configuration.idempotencyLifetime))
        state.version = try reader.int("version")
        for eventValue in try reader.array("events") {
            state.events.append(try event(eventValue))
        }
        for (node, historyValue) in try reader.object("lists") {
            guard let id = NodeID(node) else { throw SnapshotError("'\(node)' is not a node id") }
            do throws(ListError) {
                state.lists[id] = try ListHistory(snapshot: historyValue)
            } catch {
                throw SnapshotError("list of \(node): \(error)")
            }
        }
        for entryValue in try reader.array("idempotency") {
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
        return state
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
