/// An experiment of the app description (see ``AppDescription/experiments``): versions of the app,
/// its variants, served to cohorts of sessions.
public struct AppExperiment: Codable, Hashable, Sendable {
    /// One version of the app: control first.
    public struct Variant: Codable, Hashable, Sendable {
        /// Its name.
        public var name: String
        /// Its share of the units the experiment covers.
        public var weight: Double
        /// What it changes of the app description (a JSON Merge Patch); nil for control.
        public var patch: JSONValue?
    }

    /// What a variant is judged by.
    public struct Metric: Codable, Hashable, Sendable {
        /// Its name.
        public var name: String
        /// The screens a converting unit reaches, in order.
        public var funnel: [String]?
        /// A screen or launch flow a converting unit finishes with `success`.
        public var completes: String?
        /// Whether it guards against harm rather than measures the goal.
        public var guardrail: Bool?
    }

    /// A share `[lower, upper)` of a namespace's hash.
    public struct Namespace: Codable, Hashable, Sendable {
        /// The namespace.
        public var name: String
        /// `[lower, upper]`.
        public var range: [Double]
    }

    /// `session` or `user`: what the hash assigns.
    public var unit: String
    /// The share of units in the experiment.
    public var coverage: Double
    /// Control first.
    public var variants: [Variant]
    /// What the variants are judged by.
    public var metrics: [Metric]
    /// The variant every session runs once declared.
    public var winner: String?
    /// Grows to draw sessions made from then on anew.
    public var bucketVersion: Int
    /// The namespace share it takes, if any.
    public var namespace: Namespace?
    /// When sessions start to be assigned (RFC 3339).
    public var start: String?
    /// When sessions stop being assigned (RFC 3339).
    public var stop: String?
}

/// What a variant's app (``MinervaConnection/app(version:)`` of a session in an experiment) runs
/// of one experiment.
public struct AppAssignment: Codable, Hashable, Sendable {
    /// The experiment's key.
    public var experiment: String
    /// The variant the session runs.
    public var variant: String
    /// The screens where the experiment's variants differ: a node of one exposes the session.
    public var differs: [String]
}
