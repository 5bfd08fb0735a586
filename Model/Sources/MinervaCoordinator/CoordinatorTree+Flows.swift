extension CoordinatorTree {
    /// Sets and clears session flags, then follows the launch rules: when they now choose
    /// another flow, the session switches to it in the same change, and an overlay comes or
    /// goes as they choose one. Clearing a flag that was set (signing out) drops a pending deep
    /// link and the held ones, unless the session keeps its flow and an overlay comes, stays or
    /// leaves over it (locking or unlocking: the links wait for the overlay to leave).
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
        let overlaid = app.launchFlow(for: flags) == flow && (overlay != nil || app.launchOverlay(for: flags) != nil)
        if !before.isSubset(of: flags), !overlaid {
            if pending?.link != nil { pending = nil }
            dropHeldLinks()
        }
        return followLaunch()
    }

    /// Whether the launch rules choose another flow or overlay for the session's flags than it shows.
    var launchChanged: Bool {
        app.launchFlow(for: flags) != flow || app.launchOverlay(for: flags) != overlay
    }

    /// Switches to the flow the launch rules choose for the session's flags, when it is not the
    /// current one, and shows or takes away the overlay they choose over it.
    mutating func followLaunch() -> [NavigationEvent] {
        let chosen = app.launchFlow(for: flags)
        let cover = app.launchOverlay(for: flags)
        let switching = chosen != flow
        var events: [NavigationEvent] = []
        // A switch takes every node away, an overlay's too; one chosen again comes back new over the new flow.
        if overlay != nil, switching || cover != overlay { events += endOverlay(followingLink: !switching && cover == nil) }
        if switching { events += switchFlow(to: chosen, underOverlay: cover != nil) }
        if let cover, overlay == nil { showOverlay(cover) }
        return events
    }

    /// Leaves the current flow for `target`: every node but the app coordinator leaves (top-most
    /// first, reason `flowChanged`), the new flow's base is built (its first tab selected), and a
    /// deep link kept for that flow is applied, or keeps waiting when an overlay comes over it
    /// (`underOverlay`). A guarded target goes with the old flow, without a result (a switch is
    /// not a cancellation); a link kept for a flow still later stays, one for a flow the session
    /// went past is dropped.
    private mutating func switchFlow(to target: String, underOverlay: Bool) -> [NavigationEvent] {
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
        } else if let link = pending?.link, link.flow == target, !underOverlay {
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
