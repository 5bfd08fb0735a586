import Foundation
import MinervaModel

extension PredictingSession {
    /// Sends the queue in order, one change at a time, until it is empty or the session ended.
    func sendQueue() async {
        defer { sender = nil }
        var delay = Duration.milliseconds(100)
        while ended == nil, !Task.isCancelled, needsRefresh || !queue.isEmpty {
            if needsRefresh {
                do {
                    try await synchronize()
                } catch {
                    if let error = AttemptFailure(error).error as? MinervaError, error.status == 401 {
                        end(error)
                    } else {
                        // Unreachable still (or an answer this client cannot read): again, later.
                        do { try await Task.sleep(for: delay) } catch { return }
                        delay = min(delay * 2, .seconds(5))
                    }
                }
                continue
            }
            do {
                let change = queue[0]
                let headers = ChangeHeaders(
                    ifMatch: "\"\(change.prediction?.basedOn ?? confirmed.document.version)\"", key: change.key,
                    deviceChange: "\(device)/\(change.seq)",
                    deviceTime: Timestamp.rfc3339(milliseconds: Int((change.madeAt.timeIntervalSince1970 * 1000).rounded())),
                    modelVersion: change.prediction == nil ? nil : String(ModelVersion.current))
                let answer = try await session.send(change.request, headers: headers)
                delay = .milliseconds(100)
                try await answered(answer)
            } catch {
                let failure = AttemptFailure(error)
                switch failure.error {
                case let error as MinervaError where error.status == 401:
                    end(error)
                case let error as MinervaError where error.status == 412 || error.code == .deviceSeqGap:
                    await movedOn(refusing: error)
                case let error as MinervaError where error.status != 429 && error.status < 500:
                    await refused(error)
                case is CancellationError:
                    return
                default:
                    // Unreachable, `429` or `5xx`: the same change again, with the same number and key;
                    // an answer this client cannot read: the session's state says whether it applied.
                    guard let wait = failure.retryDelay(default: delay) else {
                        try? await resolveUnreadableAnswer()
                        continue
                    }
                    delay = min(delay * 2, .seconds(5))
                    do { try await Task.sleep(for: min(wait, .seconds(5))) } catch { return }
                }
            }
        }
    }

    /// The first change's answer could not be read: the session's state says whether it applied
    /// (its number at or below the device's newest); if not, it is sent again.
    private func resolveUnreadableAnswer() async throws {
        let server = try await session.refresh()
        guard let seq = queue.first?.seq, (server.devices?[device]?.seq ?? 0) >= seq else { return }
        try await answered(ChangeAnswer(state: server, alreadyApplied: true))
    }

    /// The server applied the first change (now or before): the confirmed state moves to its
    /// answer, and the rest are predicted again on it when it is not the one predicted.
    ///
    /// Everything it waits for comes first, and the queue and the confirmed state change together
    /// after it: a change the app makes meanwhile is numbered and predicted after this one.
    private func answered(_ answer: ChangeAnswer) async throws {
        let change = queue[0]
        let server: SessionState
        if let state = answer.state {
            server = state
        } else if let prediction = change.prediction, let list = answer.list, answer.version == prediction.document.version,
            list.version == prediction.document.listVersion(of: change.request)
        {
            // A list `PUT` answers the list's diff alone: its version and the session's say it is the one predicted.
            server = prediction.document
        } else {
            server = try await session.refresh()
        }
        if let prediction = change.prediction, prediction.document == server {
            queue.removeFirst()
            adopt(server, model: prediction.model)
            finish(change, .confirmed(change.predicted), state: server)
        } else {
            let model = await model(of: server)
            queue.removeFirst()
            adopt(server, model: model)
            if let predicted = change.prediction?.document {
                finish(change, .corrected(change.predicted, server: server, differences: StateDifference.paths(from: predicted, to: server)), state: server)
            } else {
                finish(change, .confirmed(change.predicted), state: server)
            }
            rebase()
        }
        await session.received(server)
    }

    /// The session moved on before the first change arrived (`412`, or a number the server did
    /// not expect): the server's state becomes the confirmed one and the queue is predicted again
    /// on it; a change that moved on too often is dropped.
    private func movedOn(refusing error: MinervaError) async {
        guard queue[0].moves < 3 else {
            await refused(error)
            return
        }
        guard let server = try? await session.refresh() else { return }
        let model = await model(of: server)
        queue[0].moves += 1
        adopt(server, model: model)
        rebase()
    }

    /// The server refused the first change: it is dropped, and the rest predicted again on the
    /// server's state.
    private func refused(_ error: MinervaError) async {
        let server = try? await session.refresh()
        var model: SessionModel?
        if let server { model = await self.model(of: server) }
        let change = queue.removeFirst()
        finish(change, .dropped(change.predicted, reason: error), error: error)
        if let server { adopt(server, model: model) }
        rebase()
    }

    /// The session ended: every change still queued is reported with it.
    private func end(_ error: MinervaError) {
        ended = error
        for change in queue { finish(change, .sessionEnded(change.predicted, reason: error), error: error) }
        queue = []
        outcomeSink.finish()
        stateSink.finish()
    }

    /// Reports a change's outcome, and answers the app's call that waited for it.
    func finish(_ change: PendingChange, _ outcome: ChangeOutcome, state: SessionState? = nil, error: MinervaError? = nil) {
        outcomeSink.yield(outcome)
        if let state {
            change.waiter?.resume(returning: state)
        } else {
            change.waiter?.resume(throwing: error ?? MinervaError(status: 409, code: .conflict, message: "the change was dropped"))
        }
    }
}

extension SessionState {
    /// The version of the list a list `PUT` made, as this state shows it.
    func listVersion(of request: ChangeRequest) -> Int? {
        guard case .list(let node, _) = request.body else { return nil }
        return self.node(node)?.list?.version
    }
}

