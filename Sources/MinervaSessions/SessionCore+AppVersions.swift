import Dispatch
public import MinervaCoordinator
public import MinervaModel

extension SessionCore {
    /// Brings a session that is being used to the app this process runs for it (the variants of
    /// its experiments, and every declared winner), when it runs an earlier version and can: it moves as a mutation of its own (an `appChanged` event) when its base
    /// navigators are the new app's and every screen it shows is still there with the params it
    /// requires. The move is durable before this returns, so the request's own work, reads
    /// included, sees the moved session. A session that cannot move stays on its version, and
    /// runs that version's app (its screens, routes and rules), until it can.
    /// - Throws: `appChanged` for a session of another app (another name); `appVersionConflict`
    ///   when the session runs a newer version than this process (another instance reloaded
    ///   first); `unavailable` when the shared store cannot tell, or the move is not stored in time.
    func moveToCurrentApp(_ session: LiveSession) throws(SessionError) {
        // The generation is read before the app, so that a reload in between is seen next time.
        let generation = appGeneration.load(ordering: .acquiring)
        if session.slot.withLock({ $0.turn.appGeneration == generation }) { return }
        let served = currentApp
        let (recorded, madeWith, target) = session.slot.withLock { slot -> (String?, String?, (app: AppDescription, version: String)?) in
            let target = served.running(memberships: slot.state.experiments)
            guard slot.state.appVersion != target.version else {
                slot.turn.appGeneration = generation
                return (nil, nil, nil)
            }
            return (slot.state.appVersion, slot.state.tree.nodes[slot.state.tree.rootID]?.screen, target)
        }
        guard let recorded, let (app, version) = target else { return }
        guard madeWith == app.name else { throw .appChanged(session.id, serving: app.name) }
        try checkNotAhead(recorded, target: version, of: session.id)
        let moved = DispatchSemaphore(value: 0)
        let waits = session.slot.withLock { slot -> Bool in
            guard !slot.turn.isClosed, slot.state.appVersion != version else { return false }
            let obstacles = slot.state.tree.obstacles(to: app)
            guard obstacles.isEmpty else {
                logger.debug("session \(session.id) stays on app version \(recorded): \(obstacles.description)")
                return false
            }
            let move = Mutation(command: .moveToApp(app, from: slot.state.appVersion, to: version), precondition: nil, idempotencyKey: nil) { _ in
                Self.noAnswer
            }
            let completion: MutationCompletion = { [logger] outcome in
                if case .failure(let error) = outcome { logger.warning("session \(session.id) did not move to app version \(version): \(error)") }
                moved.signal()
            }
            guard case .start = slot.turn.arrive(.mutation(move, completion)) else { return true }
            guard let outcome = start(move, of: session, in: &slot, completion: { completion }) else { return true }
            if case .failure(let error) = outcome { logger.warning("session \(session.id) did not move to app version \(version): \(error)") }
            return false
        }
        // A move that failed leaves the session on its version, which the request may use.
        if waits, moved.wait(timeout: .now() + Self.moveDeadline) == .timedOut {
            throw SessionError(
                .unavailable(retryAfter: 1, outcomeUnknown: false),
                "session \(session.id) is moving to app version \(version.prefix(12)), which storage has not confirmed yet; retry")
        }
    }

    /// How long a request waits for its session's move to be stored before it answers `503`
    /// (the move goes on; a retry finds it done): a group commit takes milliseconds, and the wait
    /// holds the thread that serves the request.
    static let moveDeadline = DispatchTimeInterval.milliseconds(500)

    /// Refuses a session that runs a newer app version than the one this process would run it
    /// with (`target`: the app of its variants, or the app outside every experiment), in a shared
    /// store (one process alone always runs the newest version: the one it loaded last).
    /// - Throws: `appVersionConflict`, or `unavailable` when the store cannot tell.
    func checkNotAhead(_ recorded: String, target: String? = nil, of id: String) throws(SessionError) {
        try following.checkNotAhead(recorded, current: target ?? currentApp.version, of: id, core: self)
    }

    /// What the core's own moves answer: nobody reads it.
    private static let noAnswer = StoredAnswer(status: 204, headers: [], body: [])
}

extension SessionCore {
    /// The app description of `version`: the one this process runs, one it ran, or one the
    /// store keeps (a session may run any of them until it moves).
    /// - Returns: `nil` for a version no store keeps.
    /// - Throws: `unavailable` when the store cannot be read.
    public func app(ofVersion version: String) throws(SessionError) -> AppDescription? {
        try apps.app(ofVersion: version)
    }
}
