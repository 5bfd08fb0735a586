/// A session's place in one experiment (``SessionState/experiments``): its variant, and when it
/// was exposed.
public struct ExperimentMembership: Codable, Hashable, Sendable {
    /// The variant it was assigned.
    public var variant: String
    /// When it first reached a screen where the variants differ (RFC 3339, milliseconds); nil until then.
    public var exposedAt: String?

    /// A membership (the client reads them from the server; tests and previews make them).
    public init(variant: String, exposedAt: String? = nil) {
        self.variant = variant
        self.exposedAt = exposedAt
    }
}
