import MinervaCoordinator
import MinervaModel

/// The app a process serves: as written (with its experiments), its version, and the app of
/// every combination of variants a session may run with it, each with its own version.
struct ServedApp: Sendable {
    /// The app as written: what `GET /v1/app` shows and new sessions are assigned by.
    let app: AppDescription
    /// Its version: that of the app outside every experiment (``AppVersion/of(_:)``).
    let version: String
    /// The app of each combination of choices, sorted by experiment, with its version.
    private let variants: [[AppDescription.Choice]: (app: AppDescription, version: String)]
    /// The app's experiments by key: what a change's facts are counted by (one reference to
    /// read per change, not the app).
    let experiments: [String: AppDescription.Experiment]
    /// Whether an experiment by `user` runs (without a winner): its sessions are counted before
    /// they are exposed themselves (``ExperimentFacts``).
    var countsUnexposed: Bool { experiments.values.contains { $0.unit == .user && $0.winner == nil } }

    /// Builds the app of every combination of choices a session may run: with every winner, and
    /// none, or one variant, of each other experiment (namespaces keep some apart).
    /// A combination that cannot be served (never one of an app that
    /// ``AppDescription/parse(_:source:served:)`` read, which checked them all) is left out:
    /// its sessions run the app outside the experiments.
    init(_ app: AppDescription, version: String) {
        self.app = app
        self.version = version
        var variants: [[AppDescription.Choice]: (app: AppDescription, version: String)] = [:]
        for combination in AppDescription.combinations(of: app.experiments) {
            let choices = Self.key(combination)
            guard let effective = try? app.effective(choosing: choices) else { continue }
            // The app outside every experiment has the version it was given.
            variants[choices] = (effective, choices.isEmpty ? version : AppVersion.of(effective))
        }
        self.variants = variants
        experiments = Dictionary(app.experiments.map { ($0.key, $0) }) { first, _ in first }
    }

    /// The app a session with these choices runs, and its version.
    func running(_ choices: [AppDescription.Choice]) -> (app: AppDescription, version: String) {
        let key = Self.key(choices)
        if let known = variants[key] { return known }
        // Choices no combination holds (memberships of experiments a reload set apart).
        if let effective = try? app.effective(choosing: key) { return (effective, AppVersion.of(effective)) }
        let outside = app.outsideExperiments
        return (outside, AppVersion.of(outside))
    }

    /// The app an existing session runs under this one: its memberships and the winners.
    func running(memberships: [String: ExperimentMembership]) -> (app: AppDescription, version: String) {
        guard !app.experiments.isEmpty else { return (app, version) }
        return running(ExperimentDraw.choices(in: app, memberships: memberships))
    }

    /// Every variant app, for the store to keep before any session runs one.
    var variantApps: [(app: AppDescription, version: String)] {
        variants.values.filter { $0.version != version }.sorted { $0.version < $1.version }
    }

    private static func key(_ choices: [AppDescription.Choice]) -> [AppDescription.Choice] {
        choices.sorted { $0.experiment < $1.experiment }
    }
}
