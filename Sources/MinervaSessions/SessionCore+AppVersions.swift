import MinervaCoordinator

extension SessionCore {
    /// Brings a session that is being used to the app this process runs, when it runs an earlier
    /// version: it moves as a mutation of its own (an `appChanged` event) when every screen it
    /// shows is still there with the params it requires; otherwise it is served by the new app
    /// with the screens it has (unless its tabs or layout no longer fit, when it goes on with
    /// its app) and moves once they are gone. The move is queued ahead of the request's own work.
    /// - Throws: `appChanged` for a session of another app (another name); `appVersionConflict`
    ///   when the session runs a newer version than this process (another instance reloaded
    ///   first); `unavailable` when the shared store cannot tell.
    func moveToCurrentApp(_ session: LiveSession) throws(SessionError) {
        // The generation is read before the app, so that a reload in between is seen next time.
        let generation = appGeneration.load(ordering: .acquiring)
        if session.slot.withLock({ $0.appGeneration == generation }) { return }
        let (app, version) = currentApp
        let (recorded, madeWith) = session.slot.withLock { slot -> (String?, String?) in
            guard slot.state.appVersion != version || slot.state.servedAppVersion != version else {
                slot.appGeneration = generation
                return (nil, nil)
            }
            return (slot.state.appVersion, slot.state.tree.nodes[slot.state.tree.rootID]?.screen)
        }
        guard let recorded else { return }
        guard madeWith == app.name else { throw .appChanged(session.id, serving: app.name) }
        try checkNotAhead(recorded, of: session.id)
        session.slot.withLock { slot in
            guard !slot.gone else { return }
            let obstacles = slot.state.tree.obstacles(to: app)
            if obstacles.structure.isEmpty, slot.state.servedAppVersion != version {
                slot.state.tree.run(app)
                slot.state.servedAppVersion = version
            }
            guard slot.state.appVersion != version else { return }
            guard obstacles.isEmpty else {
                logger.debug("session \(session.id) stays on app version \(recorded): \(obstacles.description)")
                return
            }
            let move = Mutation(command: .moveToApp(app, from: slot.state.appVersion, to: version), precondition: nil, idempotencyKey: nil) { _ in
                Self.noAnswer
            }
            let completion: MutationCompletion = { [logger] outcome in
                if case .failure(let error) = outcome { logger.warning("session \(session.id) did not move to app version \(version): \(error)") }
            }
            if slot.busy {
                slot.waiting.append(.mutation(move, completion))
            } else if let outcome = start(move, of: session, in: &slot, completion: { completion }) {
                completion(outcome)
            }
        }
    }

    /// Refuses a session that runs a newer app version than this process, in a shared store
    /// (one process alone always runs the newest version: the one it loaded last).
    /// - Throws: `appVersionConflict`, or `unavailable` when the store cannot tell.
    func checkNotAhead(_ recorded: String, of id: String) throws(SessionError) {
        let version = currentApp.version
        guard recorded != version, let shared = storage as? any SharedSessionStorage else { return }
        let generations: [String: Int]
        do {
            generations = try shared.appVersionGenerations(recorded, version)
        } catch {
            logger.error("could not compare app versions in storage: \(error)")
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "storage cannot be read right now; retry later")
        }
        guard generations[recorded, default: 0] > generations[version, default: 0] else { return }
        throw SessionError(
            .appVersionConflict,
            "session \(id) already runs a newer version of the app (\(recorded.prefix(12))) than this server (\(version.prefix(12))); "
                + "retry: the servers are being updated one by one")
    }

    /// What the core's own moves answer: nobody reads it.
    private static let noAnswer = StoredAnswer(status: 204, headers: [], body: [])
}
