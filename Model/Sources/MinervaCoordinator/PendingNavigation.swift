/// A guarded target kept while its `otherwise` flow is shown (login before a deep link).
public struct PendingNavigation: Hashable, Sendable {
    /// The operation that resumes when the flow finishes with `success`.
    public enum Operation: String, Hashable, Sendable, CaseIterable {
        /// Its steps are shown as `navigate`s (also a deep link's).
        case navigate
        /// Its one step is pushed.
        case push
        /// Its one step is presented.
        case present
        /// Its steps go on ``navigator``'s stack: they replace it when ``replacesStack``, else the
        /// entries before the guarded one are its stack already and these are pushed onto it.
        case setRoot
        /// The tab of ``navigator`` is selected (its root, the first step, is the guarded
        /// screen); the steps after it are a deep link's, reconciled on that tab.
        case selectTab
    }

    /// What resumes.
    public let operation: Operation
    /// The guarded step and the steps after it, params resolved (for `push` and `present`, with
    /// the presentation the operation asked for).
    public let steps: [AppDescription.Step]
    /// The navigator a `setRoot` fills, or the tab's a `selectTab` selects.
    public let navigator: NavigatorID?
    /// Whether a `setRoot` replaces the whole stack (its first entry was the guarded one).
    public let replacesStack: Bool
    /// The node of the `otherwise` flow; finishing it with `success` resumes the steps.
    public let guardNode: NodeID
    /// The flag that finishing the flow with `success` sets.
    public let flag: String

    /// Creates a pending target.
    public init(
        operation: Operation, steps: [AppDescription.Step], navigator: NavigatorID? = nil, replacesStack: Bool = false, guardNode: NodeID,
        flag: String
    ) {
        self.operation = operation
        self.steps = steps
        self.navigator = navigator
        self.replacesStack = replacesStack
        self.guardNode = guardNode
        self.flag = flag
    }

    /// The same target waiting for another flow (or the same one) with its flag.
    func replacing(operation: Operation, steps: [AppDescription.Step], navigator: NavigatorID?, replacesStack: Bool) -> PendingNavigation {
        PendingNavigation(operation: operation, steps: steps, navigator: navigator, replacesStack: replacesStack, guardNode: guardNode, flag: flag)
    }
}

extension AppDescription.Step: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(screen)
        hasher.combine(params)
    }
}
