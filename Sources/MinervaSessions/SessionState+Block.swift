import MinervaCoordinator
import MinervaJSON

extension SessionState {
    /// Completes a step's changes into its mutation's block of events and records the block in
    /// this state (the step's result): the version grows by one, the events are numbered after
    /// `old`'s and appended to the log, lists of removed nodes go, the byte count follows.
    /// - Parameters:
    ///   - changes: what the step reported.
    ///   - old: the state the step started from.
    ///   - at: the mutation's time, in milliseconds since 1970.
    ///   - keep: how many events the in-memory log keeps.
    /// - Returns: the block, or `nil` when the step changed nothing (a no-op: no version, no event).
    ///   - historyBudget: bytes the in-memory log and older list versions may take together
    ///     (half each); beyond it the oldest go (a store still holds the events).
    mutating func recordBlock(
        _ changes: [SessionEvent.Change], from old: SessionState, at: Int, keep: Int, historyBudget: Int
    ) -> ArraySlice<SessionEvent>? {
        var navigation: [NavigationEvent] = []
        var listChanges: [SessionEvent.Change] = []
        for change in changes {
            switch change {
            case .navigation(let event): navigation.append(event)
            case .listChanged: listChanges.append(change)
            }
        }
        let block = tree.changeBlock(since: old.tree, operationEvents: navigation).map(SessionEvent.Change.navigation) + listChanges
        guard !block.isEmpty else { return nil }
        version += 1
        for (index, change) in block.enumerated() {
            track(change, from: old)
            events.append(
                SessionEvent(seq: lastEvent + 1 + index, version: version, at: at, isFinal: index == block.count - 1, change: change))
        }
        lastEvent += block.count
        eventBytes += events.suffix(block.count).reduce(0) { $0 + $1.approximateByteCount }
        trimEvents(keeping: keep, atLeast: block.count, budget: historyBudget)
        if !listChanges.isEmpty { trimListHistory(budget: historyBudget) }
        return ArraySlice(events.suffix(block.count))
    }

    /// Follows one change in the byte count and drops the list of a removed node.
    private mutating func track(_ change: SessionEvent.Change, from old: SessionState) {
        switch change {
        case .navigation(.added(let added)):
            byteCount += Self.byteCount(ofNodeWith: added.params)
        case .navigation(.removed(let removed)):
            if let node = old.tree.nodes[removed.node] { byteCount -= Self.byteCount(ofNodeWith: node.params) }
            if let list = lists.removeValue(forKey: removed.node) { byteCount -= list.current.byteCount }
        case .listChanged(let node, _, _):
            byteCount += lists[node]!.current.byteCount - (old.lists[node]?.current.byteCount ?? 0)
        case .navigation:
            break
        }
    }
}
