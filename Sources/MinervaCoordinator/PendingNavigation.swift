/// A guarded target kept while its `otherwise` flow is shown (login before a deep link).
public struct PendingNavigation: Hashable, Sendable {
    /// The guarded step and any deep-link steps after it, params resolved.
    public let steps: [AppDescription.Step]
    /// The node of the `otherwise` flow; finishing it with `success` resumes the steps.
    public let guardNode: NodeID
    /// The flag that finishing the flow with `success` sets.
    public let flag: String
}

extension AppDescription.Step: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(screen)
        hasher.combine(params)
    }
}
