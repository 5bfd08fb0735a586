import Foundation
import Logging
import MinervaSessions
import Synchronization

/// `LISTEN`s for other instances' commits on a connection of its own, on a thread of its own.
/// A notification that arrives while the connection is down is lost, so after every
/// (re)connect, and at least every second, it asks for a resynchronisation from the tables —
/// which also catches an instance that crashed between its commit and its `NOTIFY`.
final class PostgresListener: Sendable {
    private let conninfo: String
    private let instance: String
    private let logger: Logger
    private let handler: @Sendable (CommitNotice) -> Void
    private let resync: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    /// How often the tables are checked when no notification says anything.
    private let checkInterval: Duration = .seconds(1)

    init(
        conninfo: String, instance: String, logger: Logger, handler: @escaping @Sendable (CommitNotice) -> Void,
        resync: @escaping @Sendable () -> Void
    ) {
        self.conninfo = conninfo
        self.instance = instance
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
    }

    private func run() {
        var failures = 0
        while !stopped.load(ordering: .relaxed) {
            do throws(PostgresError) {
                let connection = try PostgresConnection.open(conninfo, deadline: .now + .seconds(2))
                try connection.execute("LISTEN \(PostgresSessionStorage.channel)", until: .now + .seconds(2))
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
        resync()
        var nextCheck = ContinuousClock.now + checkInterval
        while !stopped.load(ordering: .relaxed) {
            if try connection.waitForInput(until: nextCheck) {
                for payload in try connection.notifications() {
                    if let notice = notice(from: payload) { handler(notice) }
                }
            }
            if ContinuousClock.now >= nextCheck {
                resync()
                nextCheck = .now + checkInterval
            }
        }
    }

    /// `instance session lastEvent` (or `-` for a deletion); `nil` for this instance's own.
    private func notice(from payload: String) -> CommitNotice? {
        let parts = payload.split(separator: " ")
        guard parts.count == 3, parts[0] != instance else { return nil }
        if parts[2] == "-" { return CommitNotice(session: String(parts[1]), lastEvent: 0, deleted: true) }
        guard let lastEvent = Int(parts[2]) else { return nil }
        return CommitNotice(session: String(parts[1]), lastEvent: lastEvent, deleted: false)
    }
}
