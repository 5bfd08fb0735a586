import Foundation
import MinervaCoordinator
import MinervaModel

/// A session that runs on the device too: each change the app asks for is applied at once with
/// the server's own navigation model, and the app observes the state it makes before the request
/// leaves; the server then confirms or corrects it.
///
/// It holds the confirmed state (the server's, at a version) and the changes still pending, each
/// predicted on the one before and numbered on this device (`Minerva-Device-Change`); a push,
/// presentation or navigation that names no node to start from is sent naming the focus it was
/// made on. They are sent in order, one at a time (the next leaves when the one before is
/// answered), each with the `If-Match` of the version it was predicted on and the model version
/// it was predicted with. When
/// the server's answer equals the prediction nothing is shown again; when it differs, or the
/// server refuses, or another device's change landed first, the server's state becomes the
/// confirmed one and the pending changes are applied again on it in order: each that no longer
/// applies is dropped. Every change gets one ``ChangeOutcome`` on ``outcomes``.
///
/// While the server cannot be reached, changes queue (at most ``maxQueuedChanges``; past that
/// ``apply(_:waitingForServer:)`` throws `503`) and are sent again, with the same numbers, until
/// it answers: a change applies exactly once for as long as the session lives. The app saves the
/// queue with ``savedQueue()`` and restores it at the next launch.
///
/// ```swift
/// let predicting = try await PredictingSession.start(session, device: deviceID)
/// let shown = try await predicting.apply(.push("profile", params: ["userId": "42"]))  // at once
/// for await outcome in predicting.outcomes { … }
/// ```
public actor PredictingSession {
    /// The session.
    public nonisolated let session: MinervaSession
    /// This device's id, which numbers its changes.
    public nonisolated let device: String
    /// The outcome of each change, as it is known (one consumer; kept until read). Changes are
    /// applied in the order they were made, so their `confirmed` and `corrected` outcomes come in
    /// that order; a change the model drops when the session moved on may be reported before an
    /// earlier one is answered: each outcome names its change.
    public nonisolated let outcomes: AsyncStream<ChangeOutcome>
    /// Each state the app is to show: predicted after a change (with the change's events),
    /// corrected after an answer that differed or a change dropped (one consumer; a state not read
    /// before the next is skipped: ``state`` is always the newest).
    public nonisolated let states: AsyncStream<ShownState>
    /// The most changes that wait for the server at once.
    public static let maxQueuedChanges = 256

    /// The state the app shows: the confirmed state with every pending change applied.
    public private(set) var state: SessionState
    /// The server's newest state this device knows, and the model of it (nil when not predicting).
    var confirmed: (document: SessionState, model: SessionModel?)
    /// The changes not yet answered, oldest first; the first is the one in flight.
    var queue: [PendingChange] = []
    /// The server's model version and limits, as it last said them.
    var server: ServerInfo {
        didSet { limits = StepLimits(server.limits) }
    }
    /// What the server checks every change against.
    private(set) var limits: StepLimits
    /// Whether the state and the server's model version and limits are to be read before the
    /// next change is sent (a session started from a saved queue, without waiting for the network).
    var needsRefresh = false
    /// The app descriptions the model ran, by version: as the server answered them, and as the model reads them.
    var apps: [String: (read: AppDescription, model: MinervaCoordinator.AppDescription)] = [:]
    /// The task that sends the queue, while it runs.
    var sender: Task<Void, Never>?
    /// Why the session ended, once it did.
    var ended: MinervaError?
    /// Whether the app closed it.
    var closed = false
    /// Changes the app made that waited for the server (no prediction).
    public private(set) var waitedChanges = 0
    let outcomeSink: AsyncStream<ChangeOutcome>.Continuation
    let stateSink: AsyncStream<ShownState>.Continuation

    private init(session: MinervaSession, device: String, server: ServerInfo, state: SessionState) {
        self.session = session
        self.device = device
        self.server = server
        limits = StepLimits(server.limits)
        self.state = state
        confirmed = (state, nil)
        (outcomes, outcomeSink) = AsyncStream.makeStream()
        (states, stateSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts predicting a session's changes on this device.
    /// - Parameters:
    ///   - session: the session.
    ///   - device: this device's id (1 to 64 of `A-Z a-z 0-9 . _ : -`), the same at every launch
    ///     (say, `identifierForVendor`): the session keeps the newest number per device.
    ///   - queue: a queue saved at the last launch (``savedQueue()``): its changes the session
    ///     applied meanwhile are confirmed, the others predicted again (or, saved under another
    ///     model version, sent without prediction) and sent.
    /// - Returns: the predicting session, holding the session's current state.
    /// - Throws: ``MinervaError`` for an error answer (`401` when the session is gone); `422` for
    ///   a device id out of bounds or a queue of another session or device.
    public static func start(_ session: MinervaSession, device: String, restoring queue: SavedQueue? = nil) async throws -> PredictingSession {
        do {
            _ = try DeviceChange(device: device, seq: 1)
        } catch {
            throw MinervaError(refusal: error)
        }
        if let queue, queue.session != session.id || queue.device != device {
            throw MinervaError(status: 422, code: .unprocessable, message: "the saved queue is of session \(queue.session) on device \(queue.device)")
        }
        let predicting: PredictingSession
        if let queue {
            // What the device knew: the app navigates on it at once, online or not; the sender
            // reads the server's state before it sends anything.
            predicting = PredictingSession(session: session, device: device, server: queue.server, state: queue.confirmed)
            if let app = queue.app { await predicting.keep(app) }
        } else {
            let server = try await session.connection.server()
            predicting = PredictingSession(session: session, device: device, server: server, state: try await session.refresh())
        }
        await predicting.restore(queue)
        return predicting
    }

    /// Applies a change: predicted at once (the returned state is the one the app shows now), then
    /// sent; its outcome comes on ``outcomes``.
    /// - Parameters:
    ///   - request: the change.
    ///   - waitingForServer: send it without prediction and return the server's state (a
    ///     payment's confirm step); the changes after it wait for it too.
    /// - Returns: the state after the change: predicted, or the server's when it waited.
    /// - Throws: ``MinervaError``: the model's refusal (`404`, `409`, `422`: nothing is sent, as
    ///   the server would refuse it too), `503` when ``maxQueuedChanges`` wait already, `401`
    ///   once the session ended; when waiting, the server's refusal.
    @discardableResult
    public func apply(_ request: ChangeRequest, waitingForServer: Bool = false) async throws -> SessionState {
        if let ended { throw ended }
        guard !closed else { throw CancellationError() }
        guard queue.count < Self.maxQueuedChanges else {
            throw MinervaError(
                status: 503, code: .unavailable, message: "\(Self.maxQueuedChanges) changes wait for the server already; wait for their outcomes")
        }
        var change = PendingChange(request: request, madeAt: Date(), seq: (queue.last?.seq ?? acknowledged) + 1)
        change.predictable = !waitingForServer
        guard !waitingForServer, let model = predictedModel else {
            waitedChanges += 1
            return try await withCheckedThrowingContinuation { waiter in
                change.waiter = waiter
                enqueue(change)
            }
        }
        change.request = request.startingFrom(model.state.focus.description)
        let (next, block) = try model.step(change.request, numbered: number(change.seq), at: change.madeAt)
        let document = next.document(after: state)
        change.prediction = .init(from: model, to: next, document: document)
        show(document, events: SessionModel.events(block))
        enqueue(change)
        return document
    }

    /// The changes not yet answered, and what the device knows of the session, to keep across
    /// launches (see ``SavedQueue``).
    public func savedQueue() -> SavedQueue {
        SavedQueue(
            session: session.id, device: device, modelVersion: ModelVersion.current, changes: queue.map(\.saved), confirmed: confirmed.document,
            server: server, app: apps[confirmed.document.appVersion]?.read)
    }

    /// Stops sending, for good (the app goes away): the changes not yet answered stay in
    /// ``savedQueue()`` (one on its way may still arrive: its number makes it apply once), and the
    /// streams end. A call still waiting for the server (``apply(_:waitingForServer:)``) throws
    /// `CancellationError`, though its change stays queued and applies when the saved queue is
    /// restored; a later call throws `CancellationError` too. Close a session the app no longer
    /// uses: until then it keeps sending what it holds.
    public func close() {
        closed = true
        sender?.cancel()
        for index in queue.indices {
            queue[index].waiter?.resume(throwing: CancellationError())
            queue[index].waiter = nil
        }
        outcomeSink.finish()
        stateSink.finish()
    }

    /// How many changes wait for the server.
    public var pendingChanges: Int { queue.count }

    /// Waits until every change made so far has its outcome.
    public func settled() async {
        while let sender { await sender.value }
    }

    /// Whether the server's model version is this client's, so that its predictions hold.
    var predicts: Bool {
        server.modelVersion == ModelVersion.current
    }

    /// The model the next change is predicted on: after the last pending change; nil when a
    /// pending change waits for the server or the session's model cannot run here.
    var predictedModel: SessionModel? {
        guard let last = queue.last else { return confirmed.model }
        return last.prediction?.model
    }

    /// The newest number the confirmed state applied of this device's changes.
    var acknowledged: Int {
        confirmed.document.devices?[device]?.seq ?? 0
    }

    /// This device's change number `seq`.
    func number(_ seq: Int) throws(MinervaError) -> DeviceChange {
        do {
            return try DeviceChange(device: device, seq: seq)
        } catch {
            throw MinervaError(refusal: error)
        }
    }

    /// Shows a state to the app, with the events of the change predicted to make it (none for a
    /// state that replaced the one shown).
    func show(_ document: SessionState, events: [Event] = []) {
        guard document != state else { return }
        state = document
        stateSink.yield(ShownState(state: document, events: events))
    }

    /// Queues a change and makes sure the queue is being sent.
    private func enqueue(_ change: PendingChange) {
        queue.append(change)
        guard sender == nil else { return }
        sender = Task { await self.sendQueue() }
    }
}
