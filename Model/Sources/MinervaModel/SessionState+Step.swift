extension SessionState {
    /// A step's outcome: the session's next state and the block of events that leads to it.
    public struct Step: Sendable {
        /// The state after the command.
        public var next: SessionState
        /// The command's block of events, numbered after this state's, the last one final.
        public var block: [SessionEvent]
    }

    /// The step, pure: runs `command` on this state (its tree runs its app description), checks
    /// the result against `limits`, and records the block of events that leads to it.
    ///
    /// The server applies every change with it; a client that holds the state can run it too.
    /// - Parameters:
    ///   - command: what to do.
    ///   - numbered: the device's number for the change (``DeviceChange``), if it has one: it
    ///     must be the device's next (``applied(_:)``), and the block names it.
    ///   - limits: what one node, one list and the whole session may hold.
    ///   - at: the change's time, in milliseconds since 1970 (what its events carry).
    /// - Returns: the next state and its block, or `nil` when the command changes nothing and no
    ///   device numbered it (no version, no event).
    /// - Throws: the refusal: `conflict` for a device's number that is not its next (code
    ///   `device_seq_gap`, or `device_seq_applied` for one applied already), then `notFound`,
    ///   `invalid` or `conflict` (with the model's code where it has one), or
    ///   `appVersionConflict`; nothing changed.
    public func step(_ command: SessionCommand, numbered: DeviceChange? = nil, limits: StepLimits, at: Int) throws(SessionError) -> Step? {
        if let numbered, let mark = try applied(numbered) {
            throw SessionError(
                .conflict, "device '\(numbered.device)' change \(numbered.seq) was applied already (its newest, \(mark.seq), made version \(mark.version))",
                code: "device_seq_applied")
        }
        var next = self
        let changes = try command.apply(to: &next, limits: limits)
        // Links a screen held apply once it is no longer the focus, whatever moved it; links that
        // would take the session over its limits are dropped instead, and the change still applies;
        // under an overlay they wait on (the screen that holds them is beneath it).
        if !command.isRestore, !next.tree.heldLinks.isEmpty, next.tree.overlay == nil, !next.tree.focusHoldsLinks {
            var released = next
            let applied = released.tree.releaseHeldLinks().map { SessionEvent.Change.navigation($0) }
            do throws(SessionError) {
                return try released.completed(changes + applied, from: self, numbered: numbered, limits: limits, at: at)
            } catch {
                next.tree.dropHeldLinks()
            }
        }
        return try next.completed(changes, from: self, numbered: numbered, limits: limits, at: at)
    }

    /// The step's end, on the state a command made: its block recorded, its limits checked.
    private mutating func completed(
        _ changes: [SessionEvent.Change], from old: SessionState, numbered: DeviceChange?, limits: StepLimits, at: Int
    ) throws(SessionError) -> Step? {
        guard let block = recordBlock(changes, from: old, at: at, listHistoryBudget: limits.listHistoryBudget, numbered: numbered) else { return nil }
        try check(limits, growingFrom: old)
        cacheFocus()
        return Step(next: self, block: block)
    }

    /// Refuses a state that grows over the session's limits (a session already over them, say
    /// under a lowered limit, may still shrink).
    private func check(_ limits: StepLimits, growingFrom old: SessionState) throws(SessionError) {
        let nodes = tree.nodes.count
        guard nodes <= limits.maxNodes || nodes <= old.tree.nodes.count else {
            throw .conflict("the session would hold \(nodes) nodes, over its limit of \(limits.maxNodes) (--max-nodes); pop or dismiss first")
        }
        guard byteCount <= limits.maxSessionBytes || byteCount <= old.byteCount else {
            throw .conflict(
                "the session would hold \(byteCount) bytes, over its limit of \(limits.maxSessionBytes) (--max-session-bytes); pop, dismiss or shrink a list first"
            )
        }
    }
}
