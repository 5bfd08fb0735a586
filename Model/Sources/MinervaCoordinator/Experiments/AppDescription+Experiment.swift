public import MinervaJSON

extension AppDescription {
    /// An experiment of the app description: versions of the app (its variants, each a JSON
    /// Merge Patch of the description) served to cohorts of sessions, their metrics compared.
    ///
    /// The first variant is control: it runs the app as written. Which variant a session runs
    /// is decided once, when it is made, from a hash of its unit's id (see ``unit``); the
    /// allocation (``coverage``, the weights, ``winner``, the times) moves no session.
    public struct Experiment: Sendable, Equatable {
        /// What the hash assigns: one session, or one person on every device.
        public enum Unit: String, Sendable, CaseIterable {
            /// The session's id: every session draws on its own.
            case session
            /// The `user` id a client gives when it makes the session: one variant per person.
            case user
        }

        /// One version of the app.
        public struct Variant: Sendable, Equatable {
            /// Its name, unique in the experiment (`control`, `short`).
            public var name: String
            /// Its share of the units the experiment covers; the weights sum to 1.
            public var weight: Double
            /// What it changes of the app description (RFC 7396); `{}` for control.
            public var patch: JSONValue
        }

        /// What a variant is judged by, counted from each unit's committed changes.
        public struct Metric: Sendable, Equatable {
            /// What converts a unit.
            public enum Goal: Sendable, Equatable {
                /// Bringing the screens into focus in this order (each, the first time, no earlier than the one before it).
                case funnel([String])
                /// A `finish` with `success` of a node of this screen (the flow it starts), or
                /// of the root of this launch flow.
                case completes(String)
            }

            /// Its name, unique in the experiment.
            public var name: String
            /// What converts a unit.
            public var goal: Goal
            /// Whether it guards against harm rather than measures the goal (shown beside it).
            public var guardrail: Bool
        }

        /// A share of the hash that experiments of the same namespace divide, so that no unit is
        /// in two of them at once (GrowthBook's namespaces).
        public struct Namespace: Sendable, Equatable {
            /// The namespace's name: its own hash seed.
            public var name: String
            /// The share of the namespace this experiment takes, `[lower, upper)` in `0...1`.
            public var lower: Double
            public var upper: Double

            /// Whether two experiments of this namespace may hold the same unit.
            public func overlaps(_ other: Namespace) -> Bool {
                name != other.name || (lower < other.upper && other.lower < upper)
            }
        }

        /// Its key: unique in the app, the hash's seed, and its name in results.
        public var key: String
        /// What the hash assigns.
        public var unit: Unit
        /// The share of units in the experiment, `0...1`; the others run control and are not counted.
        public var coverage: Double
        /// Control first.
        public var variants: [Variant]
        /// What the variants are judged by.
        public var metrics: [Metric]
        /// A variant that everyone runs from their next use, counted no longer (the experiment is over).
        public var winner: String?
        /// Grows to draw every unit again (a new seed): sessions made from then on draw anew.
        public var bucketVersion: Int
        /// The namespace share it takes, if it excludes other experiments.
        public var namespace: Namespace?
        /// When sessions start to be assigned, in milliseconds since 1970 (`nil`: at once).
        public var start: Int?
        /// When sessions stop being assigned (those assigned keep their variant and are counted).
        public var stop: Int?
        /// The screens where some variant differs from control, sorted: a session is exposed
        /// when its tree first holds a node of one (empty when the variants are the same app: an
        /// A/A test, which exposes a session when it is made).
        public internal(set) var differs: [String]

        /// The hash's seed: the key, and the bucket version when it grew.
        public var seed: String {
            bucketVersion == 0 ? key : "\(key)/\(bucketVersion)"
        }

        /// Whether sessions made at `time` (milliseconds since 1970) are assigned.
        public func assigns(at time: Int) -> Bool {
            winner == nil && start.map { time >= $0 } ?? true && stop.map { time < $0 } ?? true
        }

        /// The variant named `name`.
        public func variant(named name: String) -> Variant? {
            variants.first { $0.name == name }
        }
    }

    /// What a session of an effective app (``effective(choosing:)``) runs of one experiment:
    /// which variant, and where it is exposed.
    public struct Assignment: Sendable, Equatable {
        /// The experiment's key.
        public var experiment: String
        /// The variant the session runs.
        public var variant: String
        /// The screens where the experiment's variants differ (``Experiment/differs``).
        public var differs: [String]

        /// Creates an assignment.
        public init(experiment: String, variant: String, differs: [String]) {
            self.experiment = experiment
            self.variant = variant
            self.differs = differs
        }
    }

    /// The experiment with this key.
    public func experiment(_ key: String) -> Experiment? {
        experiments.first { $0.key == key }
    }
}
