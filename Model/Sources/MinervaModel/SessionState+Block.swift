import MinervaCoordinator
import MinervaJSON

extension SessionState {
    /// Completes a step's changes into its mutation's block of events and records the block in
    /// this state (the step's result): the version grows by one, the events are numbered after
    /// `old`'s, lists of removed nodes go, the byte count follows, and the lists' older versions
    /// keep within their budget.
    /// - Parameters:
    ///   - changes: what the step reported.
    ///   - old: the state the step started from.
    ///   - at: the mutation's time, in milliseconds since 1970.
    ///   - listHistoryBudget: bytes the older versions of all lists may take in memory.
    ///   - numbered: the device's number for the change, if it has one: the final event names it,
    ///     the device's mark takes it, and a change that changed nothing is still a block (one
    ///     `unchanged` event), so that its number is kept.
    /// - Returns: the block, or `nil` when the step changed nothing and no device numbered it (a
    ///   no-op: no version, no event).
    mutating func recordBlock(
        _ changes: [SessionEvent.Change], from old: SessionState, at: Int, listHistoryBudget: Int, numbered: DeviceChange? = nil
    ) -> [SessionEvent]? {
        // In SessionEvent.Kind's order: the app move, the navigation block, then the lists.
        var navigation: [NavigationEvent] = []
        var block: [SessionEvent.Change] = []
        var listChanges = 0
        // Whether the step changed only UI state (what an earlier `If-Match` still matches).
        var onlyUIState = true
        for change in changes {
            switch change {
            case .navigation(let event):
                navigation.append(event)
                switch event {
                case .uiChanged, .presentationChanged: break
                default: onlyUIState = false
                }
            case .appChanged:
                block.append(change)
                onlyUIState = false
            case .listChanged:
                listChanges += 1
                onlyUIState = false
            case .exposed, .unchanged:
                break
            }
        }
        block.append(contentsOf: tree.changeBlock(since: old.tree, operationEvents: navigation).lazy.map(SessionEvent.Change.navigation))
        if listChanges > 0 {
            for change in changes { if case .listChanged = change { block.append(change) } }
        }
        if !experiments.isEmpty, block.contains(where: { $0.kind == .added || $0.kind == .appChanged }) {
            block.append(contentsOf: expose(at: at))
        }
        let changedNothing = block.isEmpty
        if changedNothing, numbered != nil { block.append(.unchanged) }
        guard !block.isEmpty else { return nil }
        assert(zip(block, block.dropFirst()).allSatisfy { $0.kind <= $1.kind }, "a block's events follow SessionEvent.Kind's order")
        version += 1
        // The block holds more than the step reported (a size class, a tab) only when more changed;
        // an `unchanged` block changes nothing an `If-Match` compares.
        if !changedNothing, !onlyUIState || block.count != navigation.count { structuralVersion = version }
        if let numbered { keep(numbered) }
        cacheFocus()
        let counters = tree.idCounters
        // A replay moves the counters past the `added` events; the final event carries them when that falls short.
        var replayed = old.tree.idCounters
        for case .navigation(.added(let added)) in block { replayed.advance(past: added) }
        let shown = counters == replayed
        var events: [SessionEvent] = []
        events.reserveCapacity(block.count)
        for (index, change) in block.enumerated() {
            track(change, from: old)
            let isFinal = index == block.count - 1
            events.append(
                SessionEvent(
                    seq: lastEvent + 1 + index, version: version, at: at, isFinal: isFinal, change: change, focus: isFinal ? focus : nil,
                    counters: isFinal && !shown ? counters : nil, device: isFinal ? numbered : nil))
        }
        lastEvent += block.count
        if listChanges > 0 { trimListHistory(budget: listHistoryBudget) }
        return events
    }

    /// Follows one change in the byte count, drops the list of a removed node, and writes a
    /// finished flow's result on its parent.
    private mutating func track(_ change: SessionEvent.Change, from old: SessionState) {
        switch change {
        case .navigation(.added(let added)):
            byteCount += Self.byteCount(ofNodeWith: added.params)
        case .navigation(.removed(let removed)):
            if let node = old.tree.nodes[removed.node] {
                byteCount -= Self.byteCount(ofNodeWith: node.params) + Self.byteCount(ofUI: node.ui) + Self.byteCount(ofResults: node.results)
            }
            if let list = lists.removeValue(forKey: removed.node) { byteCount -= list.current.byteCount }
        case .navigation(.finished(let finished)):
            // The flow's result is written on its parent (latest wins per screen).
            let before = Self.byteCount(ofResults: tree.nodes[finished.parent]?.results)
            tree.keepResult(of: finished, version: version)
            byteCount += Self.byteCount(ofResults: tree.nodes[finished.parent]?.results) - before
        case .navigation(.uiChanged(let node, let ui)):
            // An empty object clears the node's UI state: the tree keeps none.
            byteCount += Self.byteCount(ofUI: ui.isEmpty ? nil : ui) - Self.byteCount(ofUI: old.tree.nodes[node]?.ui)
        case .navigation(.resultConsumed(let node, _)):
            byteCount += Self.byteCount(ofResults: tree.nodes[node]?.results) - Self.byteCount(ofResults: old.tree.nodes[node]?.results)
        case .navigation(.paramsChanged(let node, let params)):
            if let before = old.tree.nodes[node] { byteCount += Self.byteCount(ofNodeWith: params) - Self.byteCount(ofNodeWith: before.params) }
        case .listChanged(let node, _, _):
            byteCount += (lists[node]?.current.byteCount ?? 0) - (old.lists[node]?.current.byteCount ?? 0)
        case .navigation, .appChanged, .exposed, .unchanged:
            break
        }
    }
}
