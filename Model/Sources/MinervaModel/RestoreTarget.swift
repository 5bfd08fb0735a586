public import MinervaCoordinator
import MinervaList

/// An earlier version of a session, rebuilt and ready to become its current state again
/// (``SessionCommand/restore(_:)``). It is rebuilt before the mutation waits for its turn (a
/// version, once made, never changes), so the store is never read under the session's lock.
public struct RestoreTarget: Sendable {
    /// The version asked for.
    public let version: Int
    /// The rebuilt state, or why there is none (a version no longer kept).
    let past: Result<PastState, SessionError>

    /// A restore of `version`, rebuilt (or why it cannot be).
    public init(version: Int, past: Result<PastState, SessionError>) {
        self.version = version
        self.past = past
    }

    /// The nodes that had a list at that version.
    public var listNodes: [NodeID] {
        (try? past.get().listVersions.keys.sorted()) ?? []
    }

    /// The restore's step: the tree of the earlier version with today's flags; each list of a node
    /// that stays comes back as a new list version when its content is kept, and a node whose list
    /// cannot come back (or that had none then but has one now) leaves and comes back without it;
    /// a node that comes back (gone now) brings its list of then as its first list, numbered after
    /// every version the node's list had.
    /// - Returns: the removals and additions, then the list changes.
    /// - Throws: `notFound` for a version not kept, `conflict` for a version before the session's
    ///   last switch of root flows, `appVersionConflict` when a node that comes back shows a screen
    ///   the app no longer declares, `conflict` when one shows a guarded screen whose flag is not
    ///   set; `state` is then unchanged.
    func apply(to state: inout SessionState) throws(SessionError) -> [SessionEvent.Change] {
        let past = try self.past.get()
        if let flow = past.flowSwitchedSince {
            // Even to the same flow's name: another sign-in's screens are not this one's.
            throw .conflict(
                "version \(version) is before the session's last switch of flows (to '\(flow)'); flags are not restored, so it "
                    + "cannot go back across that switch (read the version with GET …/versions/\(version))")
        }
        let target = past.state.tree
        let gone = Set(target.nodes.values.filter { node in
            node.id != target.rootID && state.tree.nodes[node.id]?.screen != node.screen && state.tree.app.screens[node.screen] == nil
        }.map(\.screen))
        guard gone.isEmpty else {
            throw SessionError(
                .appVersionConflict,
                "version \(version) shows screens the app no longer declares (\(gone.sorted().joined(separator: ", "))), so it cannot come back")
        }
        var replacing: Set<NodeID> = []
        var contents: [(node: NodeID, content: ListContent)] = []
        for (node, list) in state.lists where past.state.tree.nodes[node] != nil {
            // A node removed since and shown again (by a restore) numbers its list anew: the same
            // number is another list, whose content then is not kept.
            guard let version = past.listVersions[node], !past.removedSince.contains(node) else {
                replacing.insert(node)
                continue
            }
            if version == list.version { continue }
            if let content = past.state.lists[node]?.current { contents.append((node, content)) } else { replacing.insert(node) }
        }
        let shown = Set(state.tree.nodes.keys)
        let events = try SessionError.catching { () throws(NavigationError) in try state.tree.restore(past.state.tree, replacing: replacing) }
        var removed: Set<NodeID> = []
        for case .removed(let node) in events { removed.insert(node.node) }
        var changes = events.map(SessionEvent.Change.navigation)
        for (node, content) in contents.sorted(by: { $0.node < $1.node }) where !removed.contains(node) {
            guard let previous = state.lists[node]?.version else { continue }
            state.lists[node]?.replace(with: content)
            changes.append(.listChanged(node: node, list: previous + 1, from: previous))
        }
        // A node that comes back brings its list of then, as a first list numbered after every
        // version its list had, so that the versions kept of those stay apart from the new ones.
        for (node, list) in past.state.lists.sorted(by: { $0.key < $1.key }) where !shown.contains(node) && state.tree.nodes[node] != nil {
            let number = max(past.newestListVersions[node] ?? 0, list.version) + 1
            state.lists[node] = ListHistory(firstVersion: number, content: list.current, retainedVersions: list.retainedVersions)
            changes.append(.listChanged(node: node, list: number, from: 0))
        }
        return changes
    }
}

/// A session's state at an earlier version: its tree, the lists whose content is still kept, and
/// the version each list had then.
public struct PastState: Sendable {
    /// The state (with ``SessionState/lists`` holding the lists whose content is kept).
    public var state: SessionState
    /// Each node's list version then, content kept or not.
    public var listVersions: [NodeID: Int]
    /// Nodes of then that were removed later.
    public var removedSince: Set<NodeID>
    /// Each node's newest list version in the kept log, then or since.
    public var newestListVersions: [NodeID: Int]
    /// The root flow the session switched to last after that version, if it switched since.
    public var flowSwitchedSince: String?

    /// Creates an earlier version's state.
    public init(
        state: SessionState, listVersions: [NodeID: Int], removedSince: Set<NodeID>, newestListVersions: [NodeID: Int], flowSwitchedSince: String? = nil
    ) {
        self.state = state
        self.listVersions = listVersions
        self.removedSince = removedSince
        self.newestListVersions = newestListVersions
        self.flowSwitchedSince = flowSwitchedSince
    }
}
