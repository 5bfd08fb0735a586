public import MinervaJSON

extension CoordinatorTree {
    /// Shows `screen` the way the app description says: pushed, presented, or (in split, from
    /// `primary`) as the new detail. A guarded screen whose flag is missing shows its
    /// `otherwise` flow instead and keeps the target pending.
    /// - Parameters:
    ///   - screen: a screen of the app description.
    ///   - params: the screen's params.
    ///   - from: the origin; default the focus.
    /// - Returns: the events caused and the node shown (the `otherwise` flow's when guarded).
    /// - Throws: as ``push(screen:params:from:)`` or ``present(screen:params:from:style:embedInNavigation:)``.
    @discardableResult
    public mutating func navigate(screen: String, params: [String: JSONValue] = [:], from: String? = nil) throws(NavigationError)
        -> (events: [NavigationEvent], node: NodeID)
    {
        try apply([AppDescription.Step(screen: screen, params: params)], from: from)
    }

    /// Applies steps as `navigate`s, the first from `from`, the rest from the focus, all or nothing.
    /// A guarded step whose flag is missing shows its `otherwise` flow; it and the steps after it
    /// become the pending target.
    mutating func apply(_ steps: [AppDescription.Step], from: String?) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
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
            let result = try next.show(step, from: origin)
            events += result.events
            shown = result.node
        }
        self = next
        return (events, shown)
    }

    /// One step, unguarded: push or present by the step's overrides, else the screen's entry.
    mutating func show(_ step: AppDescription.Step, from: String?) throws(NavigationError) -> (events: [NavigationEvent], node: NodeID) {
        let entry = try screenEntry(step.screen, params: step.params)
        switch step.presentation ?? entry.presentation {
        case .push:
            return try pushUnguarded(screen: step.screen, params: step.params, from: from)
        case .present:
            return try presentUnguarded(
                screen: step.screen, params: step.params, from: from, style: step.style ?? entry.style,
                embedInNavigation: step.embedInNavigation ?? entry.embedInNavigation)
        }
    }
}
