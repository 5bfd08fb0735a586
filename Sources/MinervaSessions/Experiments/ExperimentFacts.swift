import MinervaCoordinator
import MinervaModel

/// What a session's changes count towards its experiments: its unit rows when it is made, and
/// the facts (``ExperimentFact``) of each committed block, worked out while the states before
/// and after it are at hand and written in the block's own transaction, so that the counts are
/// exactly what was committed.
enum ExperimentFacts {
    /// A new session's rows: one per experiment it was assigned (not those whose variant was
    /// forced: they count no one), and the facts of those it is exposed to at once.
    /// - Parameters:
    ///   - experiments: the app's experiments by key (as written), which drew the session.
    ///   - user: the user id the session was made for, if any.
    ///   - forced: the experiments whose variant was forced.
    ///   - at: when it was made, in milliseconds since 1970.
    static func creation(
        of state: SessionState, session: String, user: String?, experiments: [String: AppDescription.Experiment], forced: Set<String>, at: Int
    ) -> (units: [ExperimentUnitRecord], facts: [ExperimentFact]) {
        guard !state.experiments.isEmpty else { return ([], []) }
        let units = state.experiments.keys.sorted().compactMap { key -> ExperimentUnitRecord? in
            guard !forced.contains(key), let experiment = experiments[key], let membership = state.experiments[key],
                let unit = experiment.unit == .user ? user : session
            else { return nil }
            return ExperimentUnitRecord(session: session, experiment: key, seed: experiment.seed, unit: unit, variant: membership.variant, assigned: at)
        }
        return (units, facts(ofBlock: [], from: nil, to: state, experiments: experiments, at: at))
    }

    /// The facts of one block, for each experiment that counts the session (it has no winner yet)
    /// from its exposure — the session's own by the block's end, or for an experiment by `user`
    /// from its making, since another session of the person may have exposed them (results count
    /// a fact from the unit's exposure on): its exposure, when the block exposed it; the screen a
    /// funnel names that the block made the focus (the focus's, when the block exposed it: a tab's
    /// root is in the tree before anyone looks at it); each flow a metric names that the block
    /// finished with `success`. Stores keep each once, with its first and newest time.
    /// - Parameters:
    ///   - old: the state before the block; `nil` for a session being made.
    ///   - experiments: the app's experiments by key (as written): their metrics.
    ///   - at: the block's time, in milliseconds since 1970.
    static func facts(
        ofBlock block: some Collection<SessionEvent>, from old: SessionState?, to new: SessionState,
        experiments: [String: AppDescription.Experiment], at: Int
    ) -> [ExperimentFact] {
        var facts: [ExperimentFact] = []
        // The screen the block brought into focus (`nil`: the focus stayed), and the focus's screen.
        let focusScreen = new.tree.nodes[new.focus]?.screen
        let focusMoved = old?.focus != new.focus
        for (key, membership) in new.experiments {
            guard let experiment = experiments[key], experiment.winner == nil,
                membership.exposedAt != nil || experiment.unit == .user, experiment.variant(named: membership.variant) != nil
            else { continue }
            let exposing = membership.exposedAt != nil && old?.experiments[key]?.exposedAt == nil
            if exposing, let exposedAt = membership.exposedAt { facts.append(ExperimentFact(experiment: key, name: .exposed, at: exposedAt)) }
            var names: [ExperimentFact.Name] = []
            for metric in experiment.metrics {
                let name: ExperimentFact.Name
                switch metric.goal {
                case .funnel(let screens):
                    guard exposing || focusMoved, let focusScreen, screens.contains(focusScreen) else { continue }
                    name = .reached(focusScreen)
                case .completes(let flow):
                    guard let old, completes(flow, in: block, from: old, to: new) else { continue }
                    name = .completed(flow)
                }
                if !names.contains(name) { names.append(name) }
            }
            facts += names.map { ExperimentFact(experiment: key, name: $0, at: at) }
        }
        return facts
    }

    /// Whether the block finished `flow` with `success`: a node of that screen, or the root of
    /// the launch flow of that name (its `completes` flag set as the flow ends).
    private static func completes(_ flow: String, in block: some Collection<SessionEvent>, from old: SessionState, to new: SessionState) -> Bool {
        let flag = old.tree.flow == flow ? old.tree.app.flows[flow]?.completes : nil
        return block.contains { event in
            guard case .navigation(.finished(let finished)) = event.change,
                finished.result.objectValue?["status"]?.stringValue == CoordinatorTree.FlowStatus.success.rawValue
            else { return false }
            return finished.screen == flow || flag.map { new.tree.flags.contains($0) && !old.tree.flags.contains($0) } == true
        }
    }
}
