import CLibPQ
import Locking
public import Logging
public import MinervaSessions
import Synchronization

/// Sessions in PostgreSQL, shared by every instance that names the same database. Writes are
/// checked against the session's newest stored event, and claim the first event's `seq`, so an
/// instance's cache never decides what is stored; after each commit the instance announces what it changed,
/// the change itself when it fits, with `NOTIFY` on one channel every instance `LISTEN`s on, on a
/// connection of its own (``PostgresListener``).
/// Every call is bounded by ``callTimeout``: a database that is down or frozen makes calls
/// fail fast, and the pool opens new connections once it is back.
public final class PostgresSessionStorage: SharedSessionStorage {
    /// The channel every commit is announced on, and every instance listens on.
    static let commitChannel = "minerva_commits"
    let pool: PostgresPool
    let logger: Logger
    /// The libpq connection URI (with the client settings this store adds).
    let conninfo: String
    /// This process's mark on its own announcements, which it skips.
    let instance = Token.random(bytes: 9)
    /// How long one call may take, waiting for a connection included.
    let callTimeout: Duration
    let listener = Locked<PostgresListener?>(nil)
    /// The key (256 bits) that seals the changes this instance's notices carry and opens those of the others.
    let noticeKey: [UInt8]

    /// Connects, and creates or migrates the schema.
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
    ///   - connections: connections for requests, writes and the sweeper (the listener has one more).
    ///   - callTimeout: how long one call may take before it fails.
    ///   - logger: where connection faults are reported.
    /// - Throws: ``StorageError`` for a URL libpq does not accept, or a database that cannot be reached or migrated.
    public init(url: String, connections: Int, callTimeout: Duration = .milliseconds(1800), logger: Logger) throws(StorageError) {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw StorageError("not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database")
        }
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &parseError) else {
            let message = parseError.map { String(cString: $0).trimmingNewlines } ?? "invalid"
            if let parseError { PQfreemem(parseError) }
            throw StorageError("not a PostgreSQL URL libpq accepts: \(message)")
        }
        PQconninfoFree(options)
        // Keepalives find a dead peer; the connect timeout is only a backstop for the deadlines.
        let separator = url.contains("?") ? "&" : "?"
        conninfo = url + separator + "keepalives=1&keepalives_idle=5&keepalives_interval=2&keepalives_count=3&connect_timeout=10"
        pool = PostgresPool(conninfo: conninfo + "&application_name=minerva", size: max(1, connections))
        self.callTimeout = callTimeout
        self.logger = logger
        do throws(PostgresError) {
            noticeKey = try Self.migrate(pool)
        } catch {
            throw StorageError("\(error)")
        }
    }

    /// Runs a call on a pooled connection, its failure as a ``StorageError``.
    func call<T>(
        outcomeUnknown: Bool = false, _ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T
    ) throws(StorageError) -> T {
        do throws(PostgresError) {
            return try pool.withConnection(timeout: callTimeout, body)
        } catch {
            throw StorageError("\(error)", outcomeUnknown: outcomeUnknown && error.kind != .statement)
        }
    }

    /// Runs `body` in a transaction, again (a few times) when PostgreSQL ends it for a deadlock
    /// or a serialization failure; then, on the same connection, announces what `announcing`
    /// says the transaction committed (see ``announce(_:on:until:)``).
    func transaction<T>(
        outcomeUnknown: Bool = false, announcing: (T) -> [CommitNotice] = { _ in [] },
        _ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T
    ) throws(StorageError) -> T {
        try statement(outcomeUnknown: outcomeUnknown, announcing: announcing) { connection, deadline throws(PostgresError) in
            try connection.execute("BEGIN", until: deadline)
            do throws(PostgresError) {
                let result = try body(connection, deadline)
                try connection.execute("COMMIT", until: deadline)
                return result
            } catch {
                if error.kind == .statement { try? connection.execute("ROLLBACK", until: deadline) }
                throw error
            }
        }
    }

    /// Runs `body`, which commits what it writes (one statement, its own transaction), on a pooled
    /// connection, again (a few times) when PostgreSQL ends it for a deadlock or a serialization
    /// failure; then, on the same connection, announces what `announcing` says it committed.
    func statement<T>(
        outcomeUnknown: Bool, announcing: (T) -> [CommitNotice], _ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T
    ) throws(StorageError) -> T {
        var attempt = 0
        while true {
            do throws(PostgresError) {
                return try pool.withConnection(timeout: callTimeout) { connection, deadline throws(PostgresError) in
                    let result = try body(connection, deadline)
                    announce(announcing(result), on: connection, until: deadline)
                    return result
                }
            } catch where error.isTransient && attempt < 3 {
                attempt += 1
            } catch {
                throw StorageError("\(error)", outcomeUnknown: outcomeUnknown && error.kind != .statement)
            }
        }
    }

    /// Tells the other instances what was committed, after the commit (inside it, `NOTIFY`
    /// would serialise every commit of the database), on the one channel every instance listens
    /// on (``commitChannel``). An instance that dies before this, or fails at it, is caught by
    /// the listeners' periodic check instead.
    private func announce(_ notices: [CommitNotice], on connection: PostgresConnection, until deadline: ContinuousClock.Instant) {
        guard !notices.isEmpty else { return }
        do throws(PostgresError) {
            try connection.query(
                "SELECT pg_notify('\(Self.commitChannel)', notice) FROM unnest($1::text[]) AS notice",
                [.texts(utf8: notices.map { $0.payload(from: instance, sealing: noticeKey) })], until: deadline)
        } catch {
            logger.warning("could not announce \(notices.count) commits to other instances (they catch up within a second): \(error)")
        }
    }

    /// Stops listening and closes the idle connections (for tests that open several stores in one process).
    public func close() {
        listener.withLock { $0?.stop() }
        pool.closeIdle()
    }
}

extension PostgresSessionStorage {
    public func observeCommits(_ handler: @escaping @Sendable (CommitNotice) -> Void, resync: @escaping @Sendable () -> Void) {
        let started = PostgresListener(
            conninfo: conninfo + "&application_name=minerva-listener", instance: instance, key: noticeKey, logger: logger, handler: handler,
            resync: resync)
        listener.withLock { listener in
            listener?.stop()
            listener = started
        }
        started.start()
    }

    public func followingChanged() {
        listener.withLock { $0?.followingChanged() }
    }
}
