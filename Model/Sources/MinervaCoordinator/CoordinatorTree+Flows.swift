extension CoordinatorTree {
    /// Sets and clears session flags, then follows the launch rules: when they now choose
    /// another flow, the session switches to it in the same change. Clearing a flag that was
    /// set (signing out) drops a pending deep link and the held ones.
    /// - Parameters:
    ///   - set: flags to set.
    ///   - clear: flags to clear; a flag in both is set.
    /// - Returns: the events of a flow switch, if any.
    /// - Throws: `invalid` for an empty flag name.
    @discardableResult
    public mutating func updateFlags(set: [String], clear: [String]) throws(NavigationError) -> [NavigationEvent] {
        if (set + clear).contains(where: \.isEmpty) {
            throw .invalid("flag names must not be empty")
        }
        let before = flags
        flags.subtract(clear)
        flags.formUnion(set)
        if !before.isSubset(of: flags) {
            if pending?.link != nil { pending = nil }
            dropHeldLinks()
        }
        return followLaunch()
    }

    /// Switches to the flow the launch rules choose for the session's flags, when it is not the
    /// current one.
    mutating func followLaunch() -> [NavigationEvent] {
        let chosen = app.launchFlow(for: flags)
        return chosen == flow ? [] : switchFlow(to: chosen)
    }

    /// Leaves the current flow for `target`: every node but the app coordinator leaves (top-most
    /// first, reason `flowChanged`), the new flow's base is built (its first tab selected), and a
    /// deep link kept for that flow is applied. A guarded target goes with the old flow, without
    /// a result (a switch is not a cancellation); a link kept for a flow still later stays, one
    /// for a flow the session went past is dropped.
    mutating func switchFlow(to target: String) -> [NavigationEvent] {
        if pending?.guarded != nil { pending = nil }
        var events = remove(Set(nodes.keys).subtracting([rootID]), reason: .flowChanged)
        let from = flow
        navigators = [:]
        navigatorOrder = []
        flow = target
        buildBase()
        events.append(.flowChanged(FlowChange(from: from, to: target, bases: baseNavigators.map { id in
            BaseNavigator(id: id, rootKind: self[navigator: id].rootPresentation.kind)
        })))
        if let link = pending?.link, app.launchRank(of: link.flow) < app.launchRank(of: target) {
            pending = nil
        } else if let link = pending?.link, link.flow == target {
            pending = nil
            // A link that cannot be shown any more (the app changed under it) is dropped.
            var attempt = self
            if let applied = try? attempt.deepLink(link.url) {
                self = attempt
                events += applied.events
            }
        }
        return events
    }

    /// Where a flow stands among the launch rules, in words: the flags under which the
    /// session shows it (for the `409` of a deep link into an earlier flow).
    func launchCondition(of target: String) -> String {
        let conditions = app.launch.filter { $0.flow == target }.map { rule in
            var parts: [String] = []
            if let flag = rule.ifFlag { parts.append("'\(flag)' is set") }
            if let flag = rule.unless { parts.append("'\(flag)' is clear") }
            return parts.isEmpty ? "always" : parts.joined(separator: " and ")
        }
        return conditions.joined(separator: ", or ")
    }
}
