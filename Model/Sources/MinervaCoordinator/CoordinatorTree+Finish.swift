public import MinervaJSON

extension CoordinatorTree {
    /// How a flow ended.
    public enum FlowStatus: String, Sendable, CaseIterable {
        case success
        case cancelled
    }

    /// Ends the flow at `node`: it leaves as it was shown (dismissed with everything above it if
    /// presented, popped with everything above it if pushed), with reason `finish`, and a
    /// `finished` event carries the result to its parent after the `removed` events.
    ///
    /// When the node is the `otherwise` flow of a pending target, `success` sets the guard's flag
    /// and resumes the target (all or nothing; dropped when it can no longer be shown);
    /// `cancelled` drops it. A base root of a flow that `completes` a flag may finish with
    /// `success`: the flag is set and the session switches to the flow the launch rules now
    /// choose, in the same change; so does an overlay's root, and the overlay leaves when they no
    /// longer choose it. A flag set by a finish that makes the launch rules choose
    /// another flow switches too (a guard's target then goes with the old flow).
    /// - Parameters:
    ///   - node: the flow's node.
    ///   - status: success or cancelled.
    ///   - value: an optional result value for the parent.
    /// - Returns: the events.
    /// - Throws: `notFound` for an unknown node, `conflict` for the app coordinator or a base or
    ///   tab root (but a completing flow's root finishing with `success`), `overlaid` for a node
    ///   beneath an overlay.
    @discardableResult
    public mutating func finish(node: NodeID, status: FlowStatus, value: JSONValue? = nil) throws(NavigationError) -> [NavigationEvent] {
        let target = self[node: node]
        guard let navigatorID = target.navigator, let parent = target.parent else {
            throw .conflict("the app coordinator '\(node)' cannot be finished")
        }
        try requireAboveOverlay(navigatorID, action: "finish '\(node)'")
        let navigator = self[navigator: navigatorID]
        let index = navigator.stack.index(ofKnown: target.id)
        if navigator.isBase, index == 0 {
            // The first node of `detail` is no root of the flow.
            let isFlowRoot = [.root, .tab, .overlay].contains(target.presentation.kind)
            let rootFlow = navigatorID == .overlay ? overlay ?? flow : flow
            guard isFlowRoot, let flag = app.flows[rootFlow]?.completes else {
                throw .conflict(
                    "'\(node)' is the root of base navigator '\(navigatorID)' and cannot be finished"
                        + (isFlowRoot && app.declaresFlows ? " (flow '\(rootFlow)' declares no 'completes' flag)" : ""))
            }
            guard status == .success else {
                throw .conflict(
                    "'\(node)' is a root of flow '\(rootFlow)', which only finishes with 'success' (setting '\(flag)'); cancelling it would show it again")
            }
            return completeFlow(root: target, parent: parent, flag: flag, value: value)
        }
        var next = self
        let waiting = next.pending?.guarded?.guardNode == target.id ? next.pending?.guarded : nil
        var removing = Set(navigator.stack[index...])
        if index == 0 {
            for above in presentedChain(above: navigatorID) { removing.formUnion(self[navigator: above].stack) }
        }
        var events = next.remove(removing, reason: .finish)
        var result: [String: JSONValue] = ["status": .string(status.rawValue)]
        if let value, value != .null { result["value"] = value }
        events.append(
            .finished(
                FinishedFlow(
                    node: target.id, screen: target.screen, parent: parent, result: .object(result),
                    held: holdsResult(of: target.screen, parent: parent, value: result["value"]))))
        if let waiting, status == .success {
            next.flags.insert(waiting.flag)
            if next.app.launchFlow(for: next.flags) != next.flow {
                events += next.followLaunch()
            } else {
                // A target that can no longer be shown is dropped; the flow has still finished.
                var resumed = next
                if let shown = try? resumed.resume(waiting) {
                    next = resumed
                    events += shown
                }
                // An overlay the flag brings (or takes away) comes over the target shown.
                if next.launchChanged { events += next.followLaunch() }
            }
        }
        self = next
        return events
    }

    /// A completing flow's root finished with `success`: its flag is set and the session
    /// switches to the flow the launch rules choose now (the root leaves with its flow).
    private mutating func completeFlow(root: Node, parent: NodeID, flag: String, value: JSONValue?) -> [NavigationEvent] {
        var result: [String: JSONValue] = ["status": .string(FlowStatus.success.rawValue)]
        if let value, value != .null { result["value"] = value }
        flags.insert(flag)
        // Its completion is its flag: the app coordinator holds no result of it.
        return [.finished(FinishedFlow(node: root.id, screen: root.screen, parent: parent, result: .object(result), held: false))] + followLaunch()
    }
}
