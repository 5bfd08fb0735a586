public import MinervaCoordinator

extension SessionState {
    /// A new session's state in the experiments its app assigns (``AppDescription/assigned``),
    /// exposed at once to those whose variants differ on a screen it shows, or nowhere (an A/A test).
    /// - Parameters:
    ///   - at: when it is made, in milliseconds since 1970.
    public init(tree: CoordinatorTree, appVersion: String, assignedAt at: Int) {
        self.init(tree: tree, appVersion: appVersion)
        for assignment in tree.app.assigned {
            experiments[assignment.experiment] = ExperimentMembership(variant: assignment.variant)
        }
        _ = expose(at: at, creating: true)
    }

    /// Exposes the session to each experiment it is assigned and not yet exposed to whose
    /// variants differ on a screen its tree now shows.
    /// - Parameter creating: whether the session is being made (an experiment whose variants
    ///   differ nowhere exposes it then).
    /// - Returns: an `exposed` change per experiment, in the order of their keys.
    mutating func expose(at: Int, creating: Bool = false) -> [SessionEvent.Change] {
        var changes: [SessionEvent.Change] = []
        for assignment in tree.app.assigned {
            guard let membership = experiments[assignment.experiment], membership.exposedAt == nil,
                membership.variant == assignment.variant
            else { continue }
            let reached =
                assignment.differs.isEmpty
                ? creating : tree.nodes.values.contains { node in assignment.differs.contains(node.screen) }
            guard reached else { continue }
            experiments[assignment.experiment]?.exposedAt = at
            changes.append(.exposed(experiment: assignment.experiment, variant: assignment.variant))
        }
        return changes
    }
}
