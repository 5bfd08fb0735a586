public import MinervaJSON

extension CoordinatorTree {
    /// Shows `screen` the way the app description says: pushed, presented, or (in split, from
    /// `primary`) as the new detail. A guarded screen whose flag is missing shows its
    /// `otherwise` flow instead and keeps the target pending.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's params.
    ///   - from: the origin; default the focus.
    ///   - settings: for a screen that is presented, as ``present(screen:params:from:style:embedInNavigation:settings:)``
    ///     takes them; a pushed screen takes none.
    /// - Returns: the events caused and the node shown (the `otherwise` flow's when guarded).
    /// - Throws: as ``push(screen:params:from:)`` or ``present(screen:params:from:style:embedInNavigation:settings:)``;
    ///   `invalid` for settings with a screen that is pushed.
    @discardableResult
    public mutating func navigate(
        screen: String, params: [String: JSONValue] = [:], from: NodeID? = nil, settings: PresentationSettings = PresentationSettings()
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        if overlay != nil {
            let origin = try origin(from)
            _ = try screenEntry(screen, params: params)
            try requireAboveOverlay(origin.navigator, action: "navigate to \(Excerpt(screen)) from '\(origin.id)'")
        }
        return try apply([AppDescription.Step(screen: screen, params: params)], from: from, settings: settings)
    }

    /// Applies steps as `navigate`s, the first from `from`, the rest from the focus, all or nothing.
    /// A guarded step whose flag is missing shows its `otherwise` flow; it and the steps after it
    /// become the pending target.
    /// `settings` is the request's, for the first step (which a client asked for).
    mutating func apply(
        _ steps: [AppDescription.Step], from: NodeID?, settings: PresentationSettings? = nil
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        var next = self
        var events: [NavigationEvent] = []
        var shown = next.focus
        for (index, step) in steps.enumerated() {
            let origin = index == 0 ? from : nil
            if let diverted = try next.divert(Array(steps[index...]), as: .navigate, from: origin) {
                events += diverted.events
                shown = diverted.node
                break
            }
            let result = try next.show(step, from: origin, settings: index == 0 ? settings : nil)
            events += result.events
            shown = result.node
        }
        self = next
        return (events, shown)
    }

    /// One step, unguarded: push or present by the step's overrides, else the screen's entry.
    /// `settings` are a client's for a step it asked for (`nil` for a route's or a resumed one).
    mutating func show(
        _ step: AppDescription.Step, from: NodeID?, settings: PresentationSettings? = nil
    ) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        let entry = try screenEntry(step.screen, params: step.params)
        switch step.presentation ?? entry.presentation {
        case .push:
            if let settings, !settings.isEmpty {
                throw .invalid("\(Excerpt(step.screen)) is pushed: 'sheet', 'anchor' and 'dismissible' are for presented screens")
            }
            return try pushUnguarded(screen: step.screen, params: step.params, from: from)
        case .present:
            return try presentUnguarded(
                screen: step.screen, params: step.params, from: from, style: step.style ?? entry.style,
                embedInNavigation: step.embedInNavigation ?? entry.embedInNavigation, settings: settings ?? PresentationSettings(),
                requested: settings != nil)
        }
    }
}
