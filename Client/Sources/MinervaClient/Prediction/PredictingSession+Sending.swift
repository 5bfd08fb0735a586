import Foundation
import MinervaJSON
import MinervaModel

extension PredictingSession {
    /// What the sender does after one step.
    enum NextStep {
        /// Go on at once: something was decided.
        case goOn
        /// Try again after a while: the server's `Retry-After`, or the sender's backoff when nil.
        case wait(Duration?)
        /// Stop: the session ended, or the app closed it.
        case stop
    }

    /// The longest wait the sender's backoff grows to.
    static let longestBackoff = Duration.seconds(5)
    /// The longest `Retry-After` the sender honours.
    static let longestRetryAfter = Duration.seconds(60)

    /// Sends the queue in order, one change at a time, until it is empty or the session ended;
    /// first reads the server's state when it is to (``needsRefresh``).
    func sendQueue() async {
        defer { sender = nil }
        var backoff = Duration.milliseconds(100)
        while ended == nil, !closed, !Task.isCancelled, needsRefresh || !queue.isEmpty {
            switch needsRefresh ? await synchronizing() : await sendFirst() {
            case .goOn:
                backoff = .milliseconds(100)
            case .wait(let retryAfter):
                let wait = retryAfter.map { min($0, Self.longestRetryAfter) } ?? backoff
                backoff = min(backoff * 2, Self.longestBackoff)
                do { try await Task.sleep(for: wait) } catch { return }
            case .stop:
                return
            }
        }
    }

    /// Reads the server's state before anything is sent (``synchronize()``).
    private func synchronizing() async -> NextStep {
        do {
            try await synchronize()
            return closed ? .stop : .goOn
        } catch {
            if let error = AttemptFailure(error).error as? MinervaError, error.status == 401 {
                end(error)
                return .stop
            }
            // Unreachable still, or an answer this client cannot read: again, later.
            return .wait(nil)
        }
    }

    /// Sends the first change once, and takes its answer.
    private func sendFirst() async -> NextStep {
        let change = queue[0]
        let firstAttempt = !change.sent
        queue[0].sent = true
        let headers = ChangeHeaders(
            ifMatch: "\"\(change.prediction?.basedOn ?? confirmed.document.version)\"", key: change.key, deviceChange: "\(device)/\(change.seq)",
            deviceTime: Timestamp.rfc3339(milliseconds: Int((change.madeAt.timeIntervalSince1970 * 1000).rounded())),
            modelVersion: change.prediction == nil ? nil : String(ModelVersion.current))
        let answer: ChangeAnswer
        do {
            answer = try await session.send(change.request, headers: headers)
        } catch {
            return await failed(error)
        }
        guard !closed else { return .stop }
        if answer.alreadyApplied, firstAttempt, let server = answer.state {
            // Its number was another change's (sent by an earlier launch that kept no queue): this
            // one was not applied. Numbered again after the session's mark.
            return await moveOn(to: server)
        }
        do {
            return try await answered(answer)
        } catch {
            return .wait(nil)
        }
    }

    /// An attempt that got no answer, or an error answer.
    private func failed(_ error: any Error) async -> NextStep {
        let failure = AttemptFailure(error)
        switch failure.error {
        case let error as MinervaError where error.status == 401:
            end(error)
            return .stop
        case let error as MinervaError where error.status == 412 || error.code == .deviceSeqGap:
            return await movedOn(refusing: error)
        case let error as MinervaError where error.status != 429 && error.status < 500:
            return await refused(error)
        case is CancellationError:
            return .stop
        default:
            // Unreachable, `429` or `503`: the same change again, with the same number and key.
            if let retryAfter = failure.retryDelay(default: .zero) {
                return .wait(retryAfter == .zero ? nil : retryAfter)
            }
            // Another `5xx`, or an answer this client cannot read: the change may have applied, and
            // the session's state says whether it did; if not, it is sent again, later.
            return (try? await resolveUnknownOutcome()) ?? .wait(nil)
        }
    }

    /// The first change's outcome is unknown: the session's state says whether it applied (its
    /// number at or below the device's newest).
    private func resolveUnknownOutcome() async throws -> NextStep {
        let server = try await session.refresh()
        guard !closed else { return .stop }
        guard let seq = queue.first?.seq, (server.devices?[device]?.seq ?? 0) >= seq else { return .wait(nil) }
        return try await answered(ChangeAnswer(state: server, alreadyApplied: true))
    }

    /// The server applied the first change (now or before): the confirmed state moves to its
    /// answer, and the rest are predicted again on it when it is not the one predicted.
    ///
    /// Everything it waits for comes first, and the queue and the confirmed state change together
    /// after it: a change the app makes meanwhile is numbered and predicted after this one.
    private func answered(_ answer: ChangeAnswer) async throws -> NextStep {
        let server: SessionState
        if let state = answer.state {
            server = state
        } else if let prediction = queue[0].prediction, let list = answer.list, answer.version == prediction.document.version,
            list.version == prediction.document.listVersion(of: queue[0].request)
        {
            // A list `PUT` answers the list's diff alone: its version and the session's say it is the one predicted.
            server = prediction.document
        } else {
            server = try await session.refresh()
        }
        guard !closed else { return .stop }
        if let prediction = queue[0].prediction, prediction.document.predicts(server) {
            let change = queue.removeFirst()
            adopt(server, model: prediction.model)
            finish(change, .confirmed(change.predicted), state: server)
        } else {
            let model = await model(of: server)
            guard !closed else { return .stop }
            let change = queue.removeFirst()
            adopt(server, model: model)
            if let prediction = change.prediction {
                finish(change, .corrected(change.predicted, server: server, differences: StateDifference.paths(from: prediction.document, to: server)), state: server)
                rebase(renaming: prediction.renames(toServer: server))
            } else {
                finish(change, .confirmed(change.predicted), state: server)
                rebase()
            }
        }
        await session.received(server)
        return .goOn
    }

    /// The session moved on before the first change arrived (`412`, or a number the server did
    /// not expect): the server's state becomes the confirmed one and the queue is predicted again
    /// on it; a change that moved on too often is dropped.
    private func movedOn(refusing error: MinervaError) async -> NextStep {
        guard queue[0].moves < 3 else { return await refused(error) }
        guard let server = try? await session.refresh() else { return .wait(nil) }
        return await moveOn(to: server)
    }

    /// Predicts the queue again on a newer state of the server's.
    private func moveOn(to server: SessionState) async -> NextStep {
        let model = await model(of: server)
        guard !closed else { return .stop }
        queue[0].moves += 1
        adopt(server, model: model)
        rebase()
        return .goOn
    }

    /// The server refused the first change: it is dropped (unless the session's state says an
    /// earlier attempt of it applied), the ids it was predicted to make name nothing, and the rest
    /// are predicted again on the server's state.
    private func refused(_ error: MinervaError) async -> NextStep {
        let server = try? await session.refresh()
        var model: SessionModel?
        if let server { model = await self.model(of: server) }
        guard !closed else { return .stop }
        if let server, queue[0].sent, (server.devices?[device]?.seq ?? 0) >= queue[0].seq {
            // An earlier attempt applied it and its answer was lost; this one was refused as a
            // request (a proxy's answer, a key the server could not read back).
            return (try? await answered(ChangeAnswer(state: server, alreadyApplied: true))) ?? .wait(nil)
        }
        let change = queue.removeFirst()
        finish(change, .dropped(change.predicted, reason: error), error: error)
        if let server { adopt(server, model: model) }
        rebase(renaming: change.prediction?.renames(to: nil) ?? [:])
        return .goOn
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
    /// The version of the list a list `PUT` or `PATCH` made, as this state shows it.
    func listVersion(of request: ChangeRequest) -> Int? {
        switch request.body {
        case .list(let node, _), .listPatch(let node, _): self.node(node)?.list?.version
        default: nil
        }
    }
}
