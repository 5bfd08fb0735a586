import Foundation
import Logging
import MinervaSessions
import Synchronization

/// `LISTEN`s for other instances' commits on a connection of its own, on a thread of its own, on
/// the one channel every commit is announced on (``PostgresSessionStorage/commitChannel``), and
/// hands each notice to the core, which replays the changes they carry on the sessions it holds.
/// A notification that arrives while the connection is down is lost, so after every
/// (re)connect, when a session gains its first follower (``followingChanged()``), and at least
/// every second, it asks for a resynchronisation from the tables — which also catches an
/// instance that crashed between its commit and its `NOTIFY`.
final class PostgresListener: Sendable {
    private let conninfo: String
    private let instance: String
    private let key: [UInt8]
    private let logger: Logger
    private let handler: @Sendable (CommitNotice) -> Void
    private let resync: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    /// How often the tables are checked when no notification says anything.
    private let checkInterval: Duration = .seconds(1)

    init(
        conninfo: String, instance: String, key: [UInt8], logger: Logger, handler: @escaping @Sendable (CommitNotice) -> Void,
        resync: @escaping @Sendable () -> Void
    ) {
        self.conninfo = conninfo
        self.instance = instance
        self.key = key
        self.logger = logger
        self.handler = handler
        self.resync = resync
    }

    /// Starts the listening thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "minerva.postgres-listener"
        thread.start()
    }

    /// Ends the thread within a second.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// A session gained its first follower here: resynchronise now.
    func followingChanged() {
        wake.signal()
    }

    private func run() {
        var failures = 0
        while !stopped.load(ordering: .relaxed) {
            do throws(PostgresError) {
                let connection = try PostgresConnection.open(conninfo, deadline: .now + .seconds(2))
                if failures > 0 { logger.notice("listening for other instances' commits again") }
                failures = 0
                try listen(on: connection)
            } catch {
                if failures == 0 { logger.error("lost the connection that hears other instances' commits; reconnecting: \(error)") }
                failures += 1
                Thread.sleep(forTimeInterval: min(1, 0.1 * Double(failures)))
            }
        }
    }

    /// Hands notifications to the core until the connection fails or the listener stops.
    private func listen(on connection: PostgresConnection) throws(PostgresError) {
        try connection.execute("LISTEN \(PostgresSessionStorage.commitChannel)", until: .now + .seconds(2))
        resync()
        var nextCheck = ContinuousClock.now + checkInterval
        while !stopped.load(ordering: .relaxed) {
            if try connection.waitForInput(until: nextCheck, orWake: wake) {
                for payload in try connection.notifications() {
                    if let notice = CommitNotice(payload: payload, skipping: instance, opening: key) { handler(notice) }
                }
            }
            let due = ContinuousClock.now >= nextCheck
            guard wake.take() || due else { continue }
            resync()
            if due { nextCheck = .now + checkInterval }
        }
    }
}
