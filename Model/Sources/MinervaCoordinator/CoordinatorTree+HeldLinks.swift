extension CoordinatorTree {
    /// The most deep links a screen holds at once (``heldLinks``).
    public static let maximumHeldLinks = 4

    /// Whether the focus is a screen that holds links (`holdsLinks`, a transfer's confirm step);
    /// never while an overlay is shown (links then wait as ``pending`` for it to leave).
    public var focusHoldsLinks: Bool {
        overlay == nil && app.screens[self[node: focus].screen]?.holdsLinks == true
    }

    /// Follows a deep link as a client sends it: applied (``deepLink(_:)``), unless the focus is
    /// a screen that holds links, which keeps it in ``heldLinks`` until it is no longer the focus.
    /// A link is held only if it could be followed now (the same refusals as applying it).
    /// - Throws: what ``deepLink(_:)`` throws; `conflict` with code `links_held` when the screen
    ///   holds ``maximumHeldLinks`` already.
    public mutating func followLink(_ url: String) throws(NavigationError) -> [NavigationEvent] {
        guard focusHoldsLinks else { return try deepLink(url).events }
        guard heldLinks.count < Self.maximumHeldLinks else {
            throw NavigationError(
                category: .conflict,
                description: "screen '\(self[node: focus].screen)' holds \(Self.maximumHeldLinks) deep links already, the most it may; they apply once it leaves",
                code: "links_held")
        }
        var trial = self
        _ = try trial.deepLink(url)
        heldLinks.append(url)
        return []
    }

    /// Applies the held links, oldest first, once the focus is not a screen that holds links
    /// (those after a link that lands on such a screen wait again); a link that can no longer be
    /// followed (its route or its flow gone, a guarded target in the pending slot) is dropped.
    /// While an overlay is shown they stay held: the screen that holds them is beneath it.
    /// Every change but a restore ends with it.
    /// - Returns: the events of the links applied.
    public mutating func releaseHeldLinks() -> [NavigationEvent] {
        var events: [NavigationEvent] = []
        while !heldLinks.isEmpty, overlay == nil, !focusHoldsLinks {
            let url = heldLinks.removeFirst()
            if let applied = try? deepLink(url) { events += applied.events }
        }
        return events
    }

    /// Drops the held links (a flag cleared: a sign-out; a restore; links that would take the
    /// session over its limits).
    public mutating func dropHeldLinks() {
        heldLinks = []
    }
}
