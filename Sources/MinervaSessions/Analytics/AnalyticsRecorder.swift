import Dispatch
import Locking
public import Logging
import MinervaCoordinator
import MinervaModel
import Synchronization

/// Records flow analytics off the request's path: the session core hands it what it committed,
/// it turns that into ``AnalyticsEntry``s at once (cheap, under the session's lock) and a writer
/// thread stores them in batches. A store fault is logged and counted, never a mutation's failure.
public final class AnalyticsRecorder: Sendable {
    private struct Queue: Sendable {
        var entries: [AnalyticsEntry] = []
        var draining = false
    }

    /// Where the figures are kept.
    public let storage: any AnalyticsStorage
    private let logger: Logger
    private let metrics = AnalyticsMetrics()
    private let queue = Locked(Queue())
    private let writer = DispatchQueue(label: "minerva.analytics-writer")
    private let enabled = Atomic<Bool>(true)
    private let pathLifetimeSeconds = Atomic<Int>(30 * 86_400)
    private let clock: @Sendable () -> Double
    /// Entries waiting at most; more are dropped (and counted) while the store is too slow.
    private let capacity: Int
    /// Entries one transaction takes at most.
    private let maximumBatch = 4096
    /// How long the writer lets entries gather before it stores them: one transaction then
    /// carries many mutations' entries even when they come one at a time.
    private let linger: DispatchTimeInterval

    /// The name of the time-on-screen histogram in `/metrics`.
    public static let timeOnScreenMetric = AnalyticsMetrics.timeOnScreenLabel

    /// Creates a recorder.
    /// - Parameters:
    ///   - storage: where figures are kept.
    ///   - clock: the server clock, in seconds since 1970.
    ///   - capacity: how many entries may wait for the writer.
    ///   - linger: how long the writer lets entries gather before it stores them.
    ///   - logger: where store faults are reported.
    public init(
        storage: any AnalyticsStorage, clock: @escaping @Sendable () -> Double, capacity: Int = 200_000, linger: Duration = .milliseconds(10),
        logger: Logger
    ) {
        self.storage = storage
        let (seconds, attoseconds) = linger.components
        self.linger = .nanoseconds(Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        self.clock = clock
        self.capacity = capacity
        self.logger = logger
    }

    /// Whether changes are recorded (on by default; off for comparisons of cost).
    public var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// How long a session's path is kept after its last change, in seconds (funnels see only kept paths).
    public var pathLifetime: Int {
        get { pathLifetimeSeconds.load(ordering: .relaxed) }
        set { pathLifetimeSeconds.store(newValue, ordering: .relaxed) }
    }

    // MARK: - Recording

    /// A session was made (at `version`): every screen of its first tree is shown, and its focus starts.
    func recordCreation(of tree: CoordinatorTree, version: Int, session: String, at seconds: Double) {
        guard isEnabled else { return }
        let at = Int(seconds * 1000)
        var entries: [AnalyticsEntry] = []
        for id in tree.nodesInScreenOrder where id != tree.rootID {
            guard let node = tree.nodes[id] else { continue }
            entries.append(AnalyticsEntry(session: session, at: at, version: version, fact: .shown(node: id.description, screen: node.screen)))
        }
        if let focus = tree.nodes[tree.focus] {
            entries.append(AnalyticsEntry(session: session, at: at, version: version, fact: .focus(node: focus.id.description, screen: focus.screen)))
        }
        submit(entries)
    }

    /// What a block of events records once this process has committed it (``record(_:)``): made
    /// from the states before and after it while both are at hand; empty when analytics are off.
    /// - Parameter time: when the change was made, as analytics record it (a device's own time,
    ///   bounded by the server's clock and the session's start); `nil`: the block's server time.
    func entries(
        ofBlock block: some Collection<SessionEvent>, from old: SessionState, to new: SessionState, session: String, at time: Int? = nil
    ) -> [AnalyticsEntry] {
        guard isEnabled, let first = block.first else { return [] }
        let at = time ?? first.at
        let entries = Self.entries(for: block, from: old, to: new, session: session, at: at, version: first.version)
        return entries.isEmpty ? [AnalyticsEntry(session: session, at: at, version: first.version, fact: .mark)] : entries
    }

    /// Records the entries of a block this process committed (``entries(ofBlock:from:to:session:at:)``).
    func record(_ entries: [AnalyticsEntry]) {
        submit(entries)
    }

    /// A session ended (`expired`, `deleted`) here.
    /// - Parameter version: the session's version then; `nil` when not known (an expiry found in the store).
    func recordEnd(of session: String, version: Int?, reason: String, at seconds: Double) {
        guard isEnabled else { return }
        submit([AnalyticsEntry(session: session, at: Int(seconds * 1000), version: version.map { $0 + 1 }, fact: .end(reason: reason))])
    }

    /// The entries of a committed block: flows finished, nodes removed (while the old focus is
    /// still the focus), nodes added, then the new focus.
    static func entries(
        for block: some Collection<SessionEvent>, from old: SessionState, to new: SessionState, session: String, at: Int, version: Int
    ) -> [AnalyticsEntry] {
        // Flows first, then exits, then screens shown: one pass per kind over the block (a
        // block is a few events), into one array.
        var entries: [AnalyticsEntry] = []
        entries.reserveCapacity(block.count + 1)
        for event in block {
            guard case .navigation(.finished(let flow)) = event.change else { continue }
            // A cancellation counts with its cause: the removal that took the flow, else its own finish.
            let result = flow.result.objectValue
            var status = result?["status"]?.stringValue ?? "success"
            if status == "cancelled" { status += "." + (result?["cause"]?.stringValue ?? "finish") }
            entries.append(AnalyticsEntry(session: session, at: at, version: version, fact: .flow(node: flow.node.description, screen: flow.screen, status: status)))
        }
        for event in block {
            guard case .navigation(.removed(let removed)) = event.change else { continue }
            entries.append(
                AnalyticsEntry(
                    session: session, at: at, version: version, fact: .exit(node: removed.node.description, screen: removed.screen, reason: removed.reason.rawValue)))
        }
        for event in block {
            guard case .navigation(.added(let added)) = event.change else { continue }
            entries.append(AnalyticsEntry(session: session, at: at, version: version, fact: .shown(node: added.node.description, screen: added.screen)))
        }
        let focus = new.focus
        if focus != old.focus, let node = new.tree.nodes[focus] {
            entries.append(AnalyticsEntry(session: session, at: at, version: version, fact: .focus(node: focus.description, screen: node.screen)))
        }
        return entries
    }

    // MARK: - Writing

    private func submit(_ entries: [AnalyticsEntry]) {
        guard !entries.isEmpty else { return }
        let (accepted, startDraining) = queue.withLock { queue -> (Bool, Bool) in
            guard queue.entries.count + entries.count <= capacity else { return (false, false) }
            queue.entries.append(contentsOf: entries)
            defer { queue.draining = true }
            return (true, !queue.draining)
        }
        if !accepted { metrics.dropped(entries.count) }
        if startDraining { writer.asyncAfter(deadline: .now() + linger) { self.drain() } }
    }

    /// Stores batches until nothing waits.
    private func drain() {
        while true {
            let batch = queue.withLock { queue -> [AnalyticsEntry] in
                guard !queue.entries.isEmpty else {
                    queue.draining = false
                    return []
                }
                let taken = Array(queue.entries.prefix(maximumBatch))
                queue.entries.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { return }
            metrics.shown(in: batch)
            do throws(StorageError) {
                metrics.timeOnScreen(try storage.recordAnalytics(batch, updated: clock()))
            } catch {
                metrics.failed()
                logger.error("could not record \(batch.count) analytics entries (the sessions' changes are stored): \(error)")
            }
        }
    }

    /// Returns once every entry recorded before the call is stored (or failed), so that a
    /// report sees them, or once `timeout` has passed (a writer behind under load keeps going
    /// on its own thread; the caller reads what is stored by then).
    public func flush(waitingAtMost timeout: Duration? = nil) {
        guard let timeout else {
            writer.sync { drain() }
            return
        }
        let done = DispatchSemaphore(value: 0)
        writer.async {
            self.drain()
            done.signal()
        }
        let (seconds, attoseconds) = timeout.components
        _ = done.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Forgets the paths of sessions unchanged for longer than ``pathLifetime``.
    func prunePaths() {
        do {
            try storage.pruneAnalyticsPaths(updatedBefore: clock() - Double(pathLifetime))
        } catch {
            logger.error("could not forget old analytics paths: \(error)")
        }
    }
}
