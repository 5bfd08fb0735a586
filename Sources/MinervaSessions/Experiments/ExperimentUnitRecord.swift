/// One session's place in one experiment, as stores keep it for counting: written in the
/// transaction that makes the session, and kept after the session goes (the experiment counted
/// it) until its unit's assignments are deleted.
public struct ExperimentUnitRecord: Sendable, Hashable {
    /// The session's id.
    public let session: String
    /// The experiment's key.
    public let experiment: String
    /// The hash's seed it was drawn with (the key, or `key/N` with a bucket version): results
    /// count the units of the experiment's current seed.
    public let seed: String
    /// The unit's id: the session's own, or the `user` it was made for.
    public let unit: String
    /// The variant it runs.
    public let variant: String
    /// When it was assigned, in milliseconds since 1970.
    public let assigned: Int

    /// Creates a record.
    public init(session: String, experiment: String, seed: String, unit: String, variant: String, assigned: Int) {
        self.session = session
        self.experiment = experiment
        self.seed = seed
        self.unit = unit
        self.variant = variant
        self.assigned = assigned
    }
}

/// Something a session did that its experiments count, kept once with its first and newest time:
/// it was exposed, it reached a screen a funnel names, it completed a flow a metric names.
public struct ExperimentFact: Sendable, Hashable {
    /// What happened, as stores keep it: `exposed`, `reached:<screen>` or `completed:<screen or flow>`.
    public struct Name: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        public let rawValue: String
        public var description: String { rawValue }

        /// A name as stores keep it.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The session was exposed: it reached a part of the app where the variants differ.
        public static let exposed = Name(rawValue: "exposed")

        /// A node of `screen` became its focus: the screen the user looks at.
        public static func reached(_ screen: String) -> Name {
            Name(rawValue: "reached:" + screen)
        }

        /// It finished a flow of `screen`, or the launch flow of that name, with `success`.
        public static func completed(_ flow: String) -> Name {
            Name(rawValue: "completed:" + flow)
        }
    }

    /// The experiment's key.
    public let experiment: String
    /// What happened.
    public let name: Name
    /// When, in milliseconds since 1970.
    public let at: Int

    /// Creates a fact.
    public init(experiment: String, name: Name, at: Int) {
        self.experiment = experiment
        self.name = name
        self.at = at
    }
}

/// When a session first and last had a fact: a store keeps both, so that a fact a session had
/// before its unit was exposed (a person's other device, earlier) still counts once it happens again.
public struct FactTimes: Sendable, Hashable {
    /// The first time, in milliseconds since 1970.
    public let first: Int
    /// The newest time.
    public let last: Int

    /// Creates the times.
    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// These times with `time` seen as well.
    public func seeing(_ time: Int) -> FactTimes {
        FactTimes(first: min(first, time), last: max(last, time))
    }

    /// The time that counts from `exposed` on: the first when it is not earlier, else the newest
    /// when that is not (the fact happened again since: at most that late), else none.
    public func counted(from exposed: Int) -> Int? {
        first >= exposed ? first : last >= exposed ? last : nil
    }
}

/// A stored unit row with the facts kept of its session: what results are counted from.
public struct StoredExperimentUnit: Sendable, Hashable {
    /// The row.
    public let record: ExperimentUnitRecord
    /// When its session first and last had each fact.
    public let facts: [ExperimentFact.Name: FactTimes]

    /// Bundles a row and its facts.
    public init(record: ExperimentUnitRecord, facts: [ExperimentFact.Name: FactTimes]) {
        self.record = record
        self.facts = facts
    }
}
