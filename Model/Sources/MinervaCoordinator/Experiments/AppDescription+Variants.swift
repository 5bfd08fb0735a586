import MinervaJSON

extension AppDescription {
    /// One experiment's variant a session runs.
    public struct Choice: Sendable, Hashable {
        /// The experiment's key.
        public var experiment: String
        /// The variant's name.
        public var variant: String
        /// Whether the session counts in the experiment (assigned to it); `false` for a winner
        /// everyone runs once the experiment is over.
        public var counted: Bool

        /// Creates a choice.
        public init(experiment: String, variant: String, counted: Bool = true) {
            self.experiment = experiment
            self.variant = variant
            self.counted = counted
        }
    }

    /// How many combinations of variants (one session's choices, none included) an app may
    /// declare: each is an app of its own, checked at start.
    public static let maximumCombinations = 64

    /// Every set of choices one session may run, from none to one variant of every experiment
    /// that may meet it (experiments whose namespace shares do not overlap never meet), each with
    /// every declared winner, which everyone runs (not counted).
    /// - Complexity: O(v^e) for e experiments of v variants: bounded by ``maximumCombinations``
    ///   once the app is read.
    public static func combinations(of experiments: [Experiment]) -> [[Choice]] {
        let winners = experiments.compactMap { experiment in
            experiment.winner.map { Choice(experiment: experiment.key, variant: $0, counted: false) }
        }
        var combinations: [[Choice]] = [[]]
        var chosen: [[Experiment]] = [[]]
        for experiment in experiments where experiment.winner == nil {
            let count = combinations.count
            for index in 0..<count where chosen[index].allSatisfy({ other in
                guard let mine = experiment.namespace, let theirs = other.namespace else { return true }
                return mine.overlaps(theirs)
            }) {
                for variant in experiment.variants {
                    combinations.append(combinations[index] + [Choice(experiment: experiment.key, variant: variant.name)])
                    chosen.append(chosen[index] + [experiment])
                }
                // Bounded: the reader refuses an app over the limit without building them all.
                if combinations.count > maximumCombinations { return combinations }
            }
        }
        return winners.isEmpty ? combinations : combinations.map { ($0 + winners).sorted { $0.experiment < $1.experiment } }
    }

    /// The app as written, outside every experiment: what a session that is in none runs.
    public var outsideExperiments: AppDescription {
        var app = self
        app.experiments = []
        return app
    }

    /// The app a session runs with these choices: every chosen variant's patch applied to the
    /// app as written (in the order of the experiments' keys), and the counted ones
    /// ``assigned`` (so that the session is exposed where their variants differ).
    /// - Throws: ``AppDescriptionError`` when a patch makes an app that cannot be served
    ///   (never for an app ``parse(_:source:served:)`` read: it checked every combination).
    public func effective(choosing choices: [Choice]) throws(AppDescriptionError) -> AppDescription {
        let sorted = choices.sorted { $0.experiment < $1.experiment }
        var app = outsideExperiments
        if sorted.contains(where: { !(experiment($0.experiment)?.variant(named: $0.variant)?.patch.isEmptyObject ?? true) }) {
            var document = plainDocument
            for choice in sorted {
                document = document.merging(patch: experiment(choice.experiment)?.variant(named: choice.variant)?.patch ?? .object([:]))
            }
            do throws(JSONReadError) {
                app = try AppReader.variantApp(document)
            } catch {
                let named = sorted.map { "'\($0.variant)' of '\($0.experiment)'" }.joined(separator: " with ")
                throw AppDescriptionError(source: named, key: error.path, message: error.reason)
            }
        }
        app.assigned = sorted.filter(\.counted).compactMap { choice in
            experiment(choice.experiment).map { Assignment(experiment: choice.experiment, variant: choice.variant, differs: $0.differs) }
        }
        return app
    }

    /// The app's canonical document without its experiments, as a value: what variants patch.
    var plainDocument: JSONValue {
        // The canonical document of a read app is always valid JSON.
        (try? JSONParser.parse(outsideExperiments.document(version: nil))) ?? .object([:])
    }

    /// The screens whose nodes show something `other` declares differently: a screen declared
    /// otherwise (or in one app only), the root screens of a flow declared otherwise (of every
    /// flow when the launch rules differ), and the screens of a route declared otherwise (of every
    /// route when the links' scheme or hosts differ).
    public func screensDiffering(from other: AppDescription) -> Set<String> {
        var differing: Set<String> = []
        for name in Set(screens.keys).union(other.screens.keys) where screens[name] != other.screens[name] {
            differing.insert(name)
        }
        let launchDiffers = launch != other.launch
        for name in Set(flows.keys).union(other.flows.keys) where launchDiffers || flows[name] != other.flows[name] {
            for app in [self, other] {
                guard let root = app.flows[name]?.root else { continue }
                differing.formUnion(root.screens)
            }
        }
        // Other links' scheme or hosts: every route's screens are reached otherwise.
        let linksDiffer = scheme != other.scheme || hosts != other.hosts
        for path in Set(routes.map(\.path)).union(other.routes.map(\.path)) {
            let mine = routes.first { $0.path == path }
            let theirs = other.routes.first { $0.path == path }
            guard linksDiffer || mine != theirs else { continue }
            for route in [mine, theirs] { differing.formUnion(route?.steps.map(\.screen) ?? []) }
        }
        return differing
    }
}

extension AppDescription.Root {
    /// The screens at its base: the screen, each tab's, or the split view's primary.
    var screens: [String] {
        switch self {
        case .screen(let screen): [screen]
        case .tabs(let tabs, _): tabs.map(\.screen)
        case .split(let split): [split.primary]
        }
    }
}

extension JSONValue {
    /// Whether it is `{}`.
    var isEmptyObject: Bool {
        if case .object(let members) = self { members.isEmpty } else { false }
    }
}
