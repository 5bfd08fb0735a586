/// A session's state kept current from its change log, as an `AsyncSequence`: the state now,
/// then the state after each change, each equal to what a `GET` of the session would answer.
///
/// It applies each block of events to the last state as the server applied the change — nodes
/// added and removed, stacks set, flows switched, results held, the focus the block's last event
/// names — so a follower reads one small event per change instead of the whole document. Where
/// the events do not carry what the state shows, it reads exactly that: a list's cells after
/// `listChanged`, the app's split rules once, and the whole state at that version after a
/// restore (nodes come back in the places they had), a change of app version, an event type this
/// client does not know, or a list that changed again before it was read (a mirror that fell
/// behind); the current state after a gap the server no longer holds, or after a block it could
/// not read (the server out of reach).
/// Each state it delivers becomes the session's ``MinervaSession/state``, so the next change
/// sends its version as `If-Match`.
///
/// ```swift
/// for try await state in session.mirror() {
///     navigationController.setViewControllers(state.stack(of: "v0").map(makeController), animated: true)
/// }
/// ```
public struct SessionMirror: AsyncSequence, Sendable {
    let session: MinervaSession
    let delivery: SessionChanges.Delivery

    /// Starts following.
    public func makeAsyncIterator() -> Iterator {
        Iterator(session: session, delivery: delivery)
    }

    /// Follows the session for one loop.
    public struct Iterator: AsyncIteratorProtocol {
        private let session: MinervaSession
        private let delivery: SessionChanges.Delivery
        private var state: SessionState?
        private var changes: SessionChanges.Iterator?
        private var block: [Event] = []
        /// The app description the split rules come from, read when a split view first needs them.
        private var app: AppDescription?
        /// The highest node number seen: ids are never reused, so a node added below it came back.
        private var highestNode = 0
        /// Whether applying a block failed (the server could not be reached): the next `next()`
        /// reads the state instead of applying the blocks after it to a state that missed one.
        private var missedBlock = false

        init(session: MinervaSession, delivery: SessionChanges.Delivery) {
            self.session = session
            self.delivery = delivery
        }

        /// The session's state now, then after each change; nil once the session ended.
        /// - Throws: ``MinervaError`` for an error answer other than the session's end;
        ///   `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> SessionState? {
            guard let current = state else {
                let first = await session.state
                state = first
                highestNode = MirroredTree.highestNode(in: first)
                var following = SessionChanges(session: session, after: first.lastEvent, delivery: delivery)
                following.advancesVersion = false
                changes = following.makeAsyncIterator()
                return first
            }
            if missedBlock {
                let read = try await session.refresh()
                missedBlock = false
                block = []
                return delivered(read)
            }
            while let change = try await changes?.next() {
                switch change {
                case .reloaded(let reloaded):
                    block = []
                    return delivered(reloaded)
                case .event(let event):
                    guard event.seq > current.lastEvent else { continue }
                    block.append(event)
                    guard event.isFinal else { continue }
                    let complete = block
                    block = []
                    missedBlock = true
                    let next = try await applying(complete, to: current)
                    missedBlock = false
                    await session.received(next)
                    return delivered(next)
                }
            }
            return nil
        }

        /// Keeps a state as the one the next block applies to.
        private mutating func delivered(_ next: SessionState) -> SessionState {
            state = next
            highestNode = Swift.max(highestNode, MirroredTree.highestNode(in: next))
            return next
        }

        /// The state after one block: from its events, with the lists it changed read; or read
        /// whole at the block's version when its events do not carry it.
        private mutating func applying(_ block: [Event], to state: SessionState) async throws -> SessionState {
            var tree = MirroredTree(state)
            do {
                try tree.apply(block, highestNode: highestNode, compactTop: try await compactTop(for: state, after: block))
                for changed in tree.listsToFetch {
                    // The list as it is now is the block's only when nothing changed since (a
                    // later change may have replaced it, removed its node, or started it again at
                    // the same number): otherwise the version's own state says what it was.
                    let read: (page: ListPage, sessionVersion: Int?)
                    do {
                        read = try await session.listPage(of: changed.node, since: changed.from)
                    } catch let error as MinervaError where error.status == 404 || error.status == 422 {
                        throw MirroredTree.Unmirrorable()
                    }
                    let page = read.page
                    guard read.sessionVersion == block.last!.version, page.version == changed.list, let diff = page.diff else {
                        throw MirroredTree.Unmirrorable()
                    }
                    tree.setList(NodeList(version: page.version, sections: page.sections, diff: diff), of: changed.node)
                }
                return tree.mirroredState
            } catch is MirroredTree.Unmirrorable {
                return try await session.stateForMirror(at: block.last!.version)
            }
        }

        /// What a compact split view shows after the block (`primary`, or nil for the deepest
        /// column), from the app description of the session's version; nil without a split view.
        private mutating func compactTop(for state: SessionState, after block: [Event]) async throws -> String? {
            var flow = state.flow
            for case .flowChanged(let change) in block { flow = change.to }
            let split = state.layout == .split || block.contains { if case .flowChanged(let change) = $0 { change.navigators.contains("detail") } else { false } }
            guard split else { return nil }
            if app?.version != state.appVersion { app = try await session.connection.app() }
            guard let app, app.version == state.appVersion else { throw MirroredTree.Unmirrorable() }
            return app.root(of: flow)?.split?.compactTop
        }
    }
}

extension MinervaSession {
    /// Follows the session's state by its change log: the state now, then the state after each
    /// change, applied from its events (see ``SessionMirror``).
    /// - Parameter delivery: how the events travel: the server-sent event stream (with the long
    ///   poll as the fallback), or the long poll only.
    /// - Returns: the states, as an `AsyncSequence`.
    public nonisolated func mirror(delivery: SessionChanges.Delivery = .serverSentEvents) -> SessionMirror {
        SessionMirror(session: self, delivery: delivery)
    }

    /// The state at `version` for a mirror that could not apply that version's events: the
    /// version itself, or the current state when the server no longer keeps it.
    func stateForMirror(at version: Int) async throws -> SessionState {
        do {
            return try await state(at: version)
        } catch let error as MinervaError where error.status == 404 {
            return try await refresh()
        }
    }
}
