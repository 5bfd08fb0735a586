import Foundation
import MinervaCoordinator
import MinervaModel

extension PredictingSession {
    /// Makes a state of the server's the confirmed one, with the model of it (nil when this client
    /// does not predict); an older state than the one confirmed is ignored.
    func adopt(_ server: SessionState, model: SessionModel?) {
        guard server.version >= confirmed.document.version else { return }
        confirmed = (server, model)
    }

    /// The model of a server's state; nil when this client does not predict, or cannot run the
    /// session's app (a newer server's, or one it cannot read): then its changes wait for the server.
    /// - Parameter fetching: whether an app description not kept yet is read from the server.
    func model(of state: SessionState, fetching: Bool = true) async -> SessionModel? {
        guard predicts else { return nil }
        if fetching, apps[state.appVersion] == nil, let read = try? await session.connection.app(version: state.appVersion) {
            keep(read)
        }
        guard let app = apps[state.appVersion] else { return nil }
        return try? SessionModel(state, app: app.model, limits: limits)
    }

    /// Keeps an app description for the states of its version, when the model can read it.
    func keep(_ app: AppDescription) {
        guard let model = try? MirrorReplay.modelApp(app) else { return }
        apps[app.version] = (app, model)
    }

    /// Predicts the queue again on the confirmed state, in order, numbering it from the device's
    /// newest number that state applied: nothing of it is in flight, and no number past that one
    /// was applied (the server applies a device's numbers in order). A change that names ids an
    /// earlier change made names the ids that change makes now; one the model now refuses is
    /// dropped with its refusal. After a change that waits for the server, none is predicted.
    /// - Parameter initial: ids renamed already (those a change answered or dropped before the
    ///   queue predicted, made or did not make).
    func rebase(renaming initial: [String: String] = [:]) {
        var model = confirmed.model
        var seq = acknowledged
        var renames = initial
        var kept: [PendingChange] = []
        for var change in queue {
            let earlier = change.prediction
            change.request = change.request.renaming(renames)
            seq += 1
            if change.seq != seq {
                change.seq = seq
                change.key = UUID().uuidString
                change.sent = false
            }
            if let base = model, change.predictable {
                do {
                    let next = try base.step(change.request, numbered: number(seq), at: change.madeAt).next
                    let document = next.document(after: kept.last(where: { $0.prediction != nil })?.prediction?.document ?? confirmed.document)
                    change.prediction = .init(from: base, to: next, document: document)
                    model = next
                    kept.append(change)
                } catch {
                    seq -= 1
                    finish(change, .dropped(change.predicted, reason: error), error: error)
                    change.prediction = nil
                }
            } else {
                // Sent as made from here on: the ids earlier predictions made name nothing.
                change.prediction = nil
                model = nil
                kept.append(change)
            }
            if let earlier { renames.merge(earlier.renames(to: change.prediction)) { _, newer in newer } }
        }
        queue = kept
        show(queue.last(where: { $0.prediction != nil })?.prediction?.document ?? confirmed.document)
    }

    /// Takes up a queue saved at an earlier launch, predicted again on the state the device last
    /// confirmed (or, saved under another model version, queued to wait for the server), and
    /// starts sending: first the server's state is read (``synchronize()``).
    func restore(_ saved: SavedQueue?) async {
        adopt(state, model: await model(of: state, fetching: saved == nil))
        guard let saved else { return }
        for change in saved.changes {
            var pending = PendingChange(request: change.request, madeAt: change.madeAt, seq: change.seq, key: change.key)
            pending.sent = change.sent
            // Predicted with another model: sent as made, its outcome the server's state.
            pending.predictable = saved.modelVersion == ModelVersion.current && !change.waitsForServer
            queue.append(pending)
        }
        rebase()
        needsRefresh = true
        if sender == nil { sender = Task { await self.sendQueue() } }
    }

    /// Reads the server's model version, limits and the session's state, and predicts the queue
    /// again on that state: the changes it applied already (their answers lost before the queue was
    /// saved) are confirmed, the others numbered after them.
    func synchronize() async throws {
        let info = try await session.connection.server()
        let state = try await session.refresh()
        server = info
        let model = await model(of: state)
        guard !closed else { return }
        adopt(state, model: model)
        while let first = queue.first, first.seq <= acknowledged {
            queue.removeFirst()
            finish(first, .confirmed(first.predicted), state: state)
        }
        needsRefresh = false
        rebase()
    }
}
