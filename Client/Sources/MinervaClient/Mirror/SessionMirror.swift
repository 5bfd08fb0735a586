/// A session's state kept current from its change log, as an `AsyncSequence`: the state now,
/// then the state after each change, each equal to what a `GET` of the session would answer.
///
/// It applies each block of events to the last state with the server's own navigation model
/// (the `MinervaModel` package: the replay the server rebuilds versions with, and its writer of
/// the state document), so a follower reads one small event per change instead of the whole
/// document. Where the events do not carry what the state shows, it reads exactly that: a list's
/// cells after `listChanged`, the app description of the session's version once, and the whole
/// state at that version after a restore (nodes come back in the places they had), a change of
/// app version, an event type this client does not know, or a list that changed again before it
/// was read (a mirror that fell behind); the current state after a gap the server no longer
/// holds, or after a block it could not read (the server out of reach).
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
        /// The session's state as the model holds it, kept from block to block; made again from
        /// a state read whole.
        private var replay: MirrorReplay?
        /// The app description the model runs, read once per version of the app.
        private var app: (version: String, model: MirrorReplay.ModelApp)?
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
                var following = SessionChanges(session: session, after: first.lastEvent, delivery: delivery)
                following.advancesVersion = false
                changes = following.makeAsyncIterator()
                return first
            }
            if missedBlock {
                let read = try await session.refresh()
                missedBlock = false
                block = []
                replay = nil
                return delivered(read)
            }
            while let change = try await changes?.next() {
                switch change {
                case .reloaded(let reloaded):
                    block = []
                    replay = nil
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
            return next
        }

        /// The state after one block: from its events, with the lists it changed read; or read
        /// whole at the block's version when its events do not carry it.
        private mutating func applying(_ block: [Event], to state: SessionState) async throws -> SessionState {
            do {
                var replay = try await self.replay(from: state)
                self.replay = nil
                var read: [String: NodeList] = [:]
                for changed in try replay.apply(block) {
                    // The list as it is now is the block's only when nothing changed since (a
                    // later change may have replaced it, removed its node, or started it again at
                    // the same number): otherwise the version's own state says what it was.
                    let page: (page: ListPage, sessionVersion: Int?)
                    do {
                        page = try await session.listPage(of: changed.node, since: changed.from)
                    } catch let error as MinervaError where error.status == 404 || error.status == 422 {
                        throw MirrorReplay.Unmirrorable()
                    }
                    guard page.sessionVersion == changed.version, page.page.version == changed.list, let diff = page.page.diff else {
                        throw MirrorReplay.Unmirrorable()
                    }
                    read[changed.node] = NodeList(version: page.page.version, sections: page.page.sections, diff: diff)
                }
                let next = try replay.state(with: read)
                self.replay = replay
                return next
            } catch is MirrorReplay.Unmirrorable {
                return try await session.stateForMirror(at: block[block.count - 1].version)
            }
        }

        /// The model's state the block applies to: the one kept since the last block, or `state`
        /// read with the app description of its version.
        private mutating func replay(from state: SessionState) async throws -> MirrorReplay {
            if let replay { return replay }
            if app?.version != state.appVersion {
                // The app of the session's own version, which a session held back by a reload runs.
                let read: AppDescription
                do {
                    read = try await session.connection.app(version: state.appVersion)
                } catch let error as MinervaError where error.status == 404 {
                    throw MirrorReplay.Unmirrorable()
                }
                app = (read.version, try MirrorReplay.modelApp(read))
            }
            guard let app, app.version == state.appVersion else { throw MirrorReplay.Unmirrorable() }
            return try MirrorReplay(state, app: app.model)
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
