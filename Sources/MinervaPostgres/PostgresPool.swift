import Foundation

/// Connections to one database, lent to one thread at a time. It opens them on demand up to
/// its size; a thread that finds none free waits, at most until its deadline. A connection that
/// failed or timed out is closed rather than returned, so the next call opens a fresh one — and
/// that is how the store heals once the database is back.
final class PostgresPool: @unchecked Sendable {
    private let conninfo: String
    private let size: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PostgresConnection] = []
    private var open = 0

    /// - Parameters:
    ///   - conninfo: the libpq connection URI.
    ///   - size: the most connections open at once.
    init(conninfo: String, size: Int) {
        self.conninfo = conninfo
        self.size = size
    }

    /// Runs `body` with a connection, within `timeout`.
    /// - Throws: ``PostgresError`` when no connection could be had or the call failed.
    func withConnection<T>(
        timeout: Duration, _ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> T
    ) throws(PostgresError) -> T {
        let deadline = ContinuousClock.now + timeout
        let connection = try checkOut(until: deadline)
        do throws(PostgresError) {
            let result = try body(connection, deadline)
            checkIn(connection, healthy: connection.isHealthy)
            return result
        } catch {
            checkIn(connection, healthy: error.kind == .statement && connection.isHealthy)
            throw error
        }
    }

    /// Closes the connections nobody uses now.
    func closeIdle() {
        condition.lock()
        open -= idle.count
        idle = []
        condition.unlock()
    }

    private func checkOut(until deadline: ContinuousClock.Instant) throws(PostgresError) -> PostgresConnection {
        let wallDeadline = Date(timeIntervalSinceNow: Self.seconds(ContinuousClock.now.duration(to: deadline)))
        condition.lock()
        while idle.isEmpty, open >= size {
            guard condition.wait(until: wallDeadline) else {
                condition.unlock()
                throw PostgresError(.timeout, "all \(size) database connections stayed busy")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        do throws(PostgresError) {
            let connection = try PostgresConnection.open(conninfo, deadline: deadline)
            // Every statement is a lookup by key: a generic plan serves each as well as a custom
            // one would, and PostgreSQL would otherwise plan the session read at every execution.
            try connection.execute("SET plan_cache_mode = force_generic_plan", until: deadline)
            return connection
        } catch {
            checkIn(nil, healthy: false)
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection?, healthy: Bool) {
        condition.lock()
        if let connection, healthy {
            idle.append(connection)
        } else {
            open -= 1
        }
        condition.signal()
        condition.unlock()
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
