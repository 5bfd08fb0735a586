import Foundation
import Logging
import MinervaSessions
import Synchronization

/// `LISTEN`s for other instances' commits on a connection of its own, on a thread of its own,
/// on one channel per session that someone here follows (``PostgresSessionStorage/channel(of:)``),
/// so that an instance hears only of the sessions it has followers for. The channels follow the
/// followed sessions: at once when a session gains its first follower (``followingChanged()``),
/// and at every periodic check for those that lost theirs.
/// A notification that arrives while the connection is down, or before a channel is listened
/// on, is lost, so after every (re)connect, after new channels, and at least every second, it
/// asks for a resynchronisation from the tables — which also catches an instance that crashed
/// between its commit and its `NOTIFY`.
final class PostgresListener: Sendable {
    private let conninfo: String
    private let instance: String
    private let logger: Logger
    private let handler: @Sendable (CommitNotice) -> Void
    private let resync: @Sendable () -> Void
    private let following: @Sendable () -> [String]
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    /// How often the tables are checked when no notification says anything.
    private let checkInterval: Duration = .seconds(1)

    init(
        conninfo: String, instance: String, logger: Logger, handler: @escaping @Sendable (CommitNotice) -> Void,
        resync: @escaping @Sendable () -> Void, following: @escaping @Sendable () -> [String]
    ) {
        self.conninfo = conninfo
        self.instance = instance
        self.logger = logger
        self.handler = handler
        self.resync = resync
        self.following = following
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

    /// The sessions to hear of gained one: listen on its channel now.
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
        var channels: Set<String> = []
        try follow(on: connection, channels: &channels)
        resync()
        var nextCheck = ContinuousClock.now + checkInterval
        while !stopped.load(ordering: .relaxed) {
            if try connection.waitForInput(until: nextCheck, orWake: wake) {
                for payload in try connection.notifications() {
                    if let notice = notice(from: payload) { handler(notice) }
                }
            }
            let due = ContinuousClock.now >= nextCheck
            guard wake.take() || due else { continue }
            // Commits made before a new channel was listened on are read from the tables.
            if try follow(on: connection, channels: &channels) || due { resync() }
            if due { nextCheck = .now + checkInterval }
        }
    }

    /// Listens on the channels of the sessions followed now, and no longer on the others.
    /// - Returns: whether it listens on a channel it did not before.
    @discardableResult
    private func follow(on connection: PostgresConnection, channels: inout Set<String>) throws(PostgresError) -> Bool {
        let wanted = Set(following().compactMap(PostgresSessionStorage.channel(of:)))
        guard wanted != channels else { return false }
        let added = wanted.subtracting(channels)
        let statements = added.map { "LISTEN \"\($0)\"" } + channels.subtracting(wanted).map { "UNLISTEN \"\($0)\"" }
        try connection.execute(statements.joined(separator: "; "), until: .now + .seconds(2))
        channels = wanted
        return !added.isEmpty
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
