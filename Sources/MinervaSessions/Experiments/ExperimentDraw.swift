import MinervaCoordinator
import MinervaExperiments
import MinervaModel

/// Which variants a session runs: drawn once, when it is made, from a hash of its unit's id
/// (GrowthBook's, so that every instance, every restart and another implementation agree);
/// afterwards read from the session's memberships.
enum ExperimentDraw {
    /// The choices of a session made at `time`: for each experiment that assigns then, the
    /// variant the hash of its unit (the session's id, or the `user` it was made for) gives
    /// when that unit falls in the experiment's namespace share and coverage; for each
    /// experiment with a declared winner, the winner (not counted).
    /// - Parameters:
    ///   - session: the new session's id.
    ///   - user: the user id its client gave, if any (experiments by `user` skip a session without).
    ///   - time: milliseconds since 1970.
    ///   - forced: variants chosen by key instead of drawn (checked by the caller: experiments
    ///     without a winner, variants they have), whatever the allocation says; an experiment
    ///     whose namespace share excludes a forced one's is not drawn.
    static func choices(
        in app: AppDescription, session: String, user: String?, at time: Int, forced: [String: String] = [:]
    ) -> [AppDescription.Choice] {
        var choices: [AppDescription.Choice] = []
        let excluding = forced.keys.compactMap { app.experiment($0)?.namespace }
        for experiment in app.experiments {
            if let winner = experiment.winner {
                choices.append(AppDescription.Choice(experiment: experiment.key, variant: winner, counted: false))
                continue
            }
            if let variant = forced[experiment.key] {
                choices.append(AppDescription.Choice(experiment: experiment.key, variant: variant))
                continue
            }
            if let namespace = experiment.namespace, excluding.contains(where: { !$0.overlaps(namespace) }) { continue }
            guard experiment.assigns(at: time), let unit = experiment.unit == .user ? user : session else { continue }
            if let namespace = experiment.namespace {
                let position = ExperimentHash.namespacePosition(namespace: namespace.name, unit: unit)
                guard position >= namespace.lower, position < namespace.upper else { continue }
            }
            let allocation = VariantAllocation(weights: experiment.variants.map(\.weight), coverage: experiment.coverage)
            guard let index = allocation.variant(at: ExperimentHash.position(seed: experiment.seed, unit: unit)) else { continue }
            choices.append(AppDescription.Choice(experiment: experiment.key, variant: experiment.variants[index].name))
        }
        return choices
    }

    /// The choices of a session that exists, under `app`: its memberships of experiments the app
    /// still declares with that variant, and every declared winner (not counted).
    static func choices(in app: AppDescription, memberships: [String: ExperimentMembership]) -> [AppDescription.Choice] {
        app.experiments.compactMap { experiment in
            if let winner = experiment.winner { return AppDescription.Choice(experiment: experiment.key, variant: winner, counted: false) }
            guard let membership = memberships[experiment.key], experiment.variant(named: membership.variant) != nil else { return nil }
            return AppDescription.Choice(experiment: experiment.key, variant: membership.variant)
        }
    }
}
