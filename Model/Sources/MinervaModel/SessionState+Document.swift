public import MinervaCoordinator
public import MinervaJSON

extension SessionState {
    /// Reads a session's state back from its state document (as ``StateDocument`` writes it),
    /// run with `app`: what a client that mirrors a session holds, to replay the session's events
    /// on (``replay(_:)``). Lists are not read: a client keeps their cells apart.
    /// - Throws: ``JSONReadError`` when the value is not a state document, or not one of `app`.
    public init(document value: JSONValue, app: AppDescription) throws(JSONReadError) {
        let reader = try JSONObjectReader(value, keys: CoordinatorTree.documentKeys)
        let version = try reader.int("version")
        self.init(
            tree: try CoordinatorTree(document: reader, app: app), appVersion: try reader.string("appVersion"), firstEvent: 1, version: version,
            lastEvent: try reader.int("lastEvent"), structuralVersion: version, lists: [:], listHistoryBudget: .max,
            devices: try DeviceMark.read("devices", of: reader))
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
