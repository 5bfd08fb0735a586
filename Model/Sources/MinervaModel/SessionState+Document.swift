public import MinervaCoordinator
public import MinervaJSON
import MinervaList

extension SessionState {
    /// Reads a session's state back from its state document (as ``StateDocument`` writes it),
    /// run with `app`: what a client that mirrors a session holds, to replay the session's events
    /// on (``replay(_:)``), or predicts its changes on (``step(_:numbered:limits:at:)``).
    ///
    /// The lists of a document written with their cells (`lists=full`) are read, each at its
    /// version with no older one kept, so that a step on the state replaces them as the server's
    /// step does; a client that only replays keeps their cells apart (a list's `listChanged` event
    /// does not carry them).
    /// - Parameters:
    ///   - value: the document.
    ///   - app: the app description of the document's `appVersion`.
    ///   - listHistory: the list versions each list keeps for diffs (``StepLimits/listHistory``).
    /// - Throws: ``JSONReadError`` when the value is not a state document, or not one of `app`.
    public init(document value: JSONValue, app: AppDescription, listHistory: Int = 32) throws(JSONReadError) {
        let reader = try JSONObjectReader(value, keys: CoordinatorTree.documentKeys)
        let version = try reader.int("version")
        var lists: [NodeID: ListHistory] = [:]
        try reader.object("root", keys: CoordinatorTree.documentNodeKeys) { root throws(JSONReadError) in
            try Self.readLists(of: root, listHistory: listHistory, into: &lists)
        }
        self.init(
            tree: try CoordinatorTree(document: reader, app: app), appVersion: try reader.string("appVersion"), firstEvent: 1, version: version, lastEvent: try reader.int("lastEvent"),
            structuralVersion: version, lists: lists, listHistoryBudget: .max, devices: try DeviceMark.read("devices", of: reader))
        experiments = try ExperimentMembership.read("experiments", of: reader)
    }

    /// The members of a node's `list` in a state document.
    private static let documentListKeys: JSONKeys = ["version", "count", "sections", "diff"]

    /// Reads the lists of a document's node and the nodes below it: those written with their cells.
    private static func readLists(
        of node: JSONObjectReader, listHistory: Int, into lists: inout [NodeID: ListHistory]
    ) throws(JSONReadError) {
        let read = try node.optionalObject("list", keys: documentListKeys) { list throws(JSONReadError) -> (Int, [ListSection])? in
            guard list.contains("sections") else { return nil }
            return (try list.int("version"), try SessionCommand.sections(list))
        }
        if let (version, sections) = read ?? nil {
            let id = try node.nodeID("id")
            do throws(ListError) {
                lists[id] = ListHistory(firstVersion: version, content: try ListContent(sections: sections), retainedVersions: listHistory)
            } catch {
                throw node.error(error.description, at: .key("list"))
            }
        }
        _ = try node.objects("children", keys: CoordinatorTree.documentNodeKeys) { child throws(JSONReadError) in
            try readLists(of: child, listHistory: listHistory, into: &lists)
        }
    }

    /// The replay: applies one change's block of events, as the step recorded it, to the state
    /// it started from: the tree (``CoordinatorTree/replay(_:version:)``), the version, the newest
    /// event and what the size limit counts; the lists of nodes the block removed go. A list's new
    /// cells are not in its `listChanged` event: a client reads them apart.
    /// - Parameter block: the events of one version, in order, the last one final.
    public mutating func replay(_ block: [SessionEvent]) {
        guard let last = block.last else { return }
        var navigation: [NavigationEvent] = []
        navigation.reserveCapacity(block.count)
        var onlyUIState = true
        for event in block {
            if case .exposed(let experiment, let variant) = event.change {
                experiments[experiment] = ExperimentMembership(variant: variant, exposedAt: event.at)
            }
            guard case .navigation(let change) = event.change else {
                if event.kind != .unchanged { onlyUIState = false }
                continue
            }
            navigation.append(change)
            switch change {
            case .uiChanged, .presentationChanged: break
            case .removed(let removed):
                lists[removed.node] = nil
                onlyUIState = false
            default: onlyUIState = false
            }
        }
        tree.replay(navigation, version: last.version, counters: last.counters)
        version = last.version
        if let numbered = last.device { devices[numbered.device] = DeviceMark(seq: numbered.seq, version: version) }
        lastEvent = last.seq
        if !onlyUIState { structuralVersion = version }
        byteCount = Self.byteCount(of: tree, lists: lists, devices: devices)
    }
}
