import CLibPQ

#if canImport(Glibc)
import Glibc
#endif

/// One libpq connection in non-blocking mode, every call bounded by a deadline: a database that
/// is down fails at once, one that is frozen fails when the deadline passes, never later.
/// Statements are prepared once per connection and then sent by name, with binary parameters
/// and results. One thread uses it at a time (``PostgresPool`` lends it out).
final class PostgresConnection: @unchecked Sendable {
    private let raw: OpaquePointer
    /// Prepared statements by their SQL.
    private var prepared: [String: String] = [:]

    private init(_ raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        PQfinish(raw)
    }

    /// Connects without blocking past `deadline`.
    /// - Parameter conninfo: a libpq connection string or URI.
    static func open(_ conninfo: String, deadline: ContinuousClock.Instant) throws(PostgresError) -> PostgresConnection {
        guard let raw = PQconnectStart(conninfo) else { throw PostgresError(.connection, "out of memory") }
        let connection = PostgresConnection(raw)
        guard PQstatus(raw) != CONNECTION_BAD else { throw connection.failure(.connection) }
        // libpq's non-blocking connect: wait for what PQconnectPoll asks, starting as if writing.
        var status = PGRES_POLLING_WRITING
        while status != PGRES_POLLING_OK {
            guard status != PGRES_POLLING_FAILED else { throw connection.failure(.connection) }
            try connection.wait(reading: status == PGRES_POLLING_READING, writing: status != PGRES_POLLING_READING, until: deadline)
            status = PQconnectPoll(raw)
        }
        guard PQsetnonblocking(raw, 1) == 0 else { throw connection.failure(.connection) }
        // PostgreSQL's notices ("already exists, skipping") are not errors: libpq would print them.
        PQsetNoticeProcessor(raw, { _, _ in }, nil)
        return connection
    }

    /// Whether the connection is still usable.
    var isHealthy: Bool {
        PQstatus(raw) == CONNECTION_OK && PQtransactionStatus(raw) == PQTRANS_IDLE
    }

    /// Runs one statement (prepared on first use) and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [PostgresValue] = [], until deadline: ContinuousClock.Instant) throws(PostgresError) -> PostgresRows {
        let name = try statement(sql, types: parameters.map(\.typeOID), until: deadline)
        var blob: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        for parameter in parameters {
            let bytes = parameter.wireBytes
            offsets.append(blob.count)
            lengths.append(Int32(bytes.count))
            blob.append(contentsOf: bytes)
        }
        blob.append(0)  // never empty, so that every value has an address
        let formats = parameters.map(\.format)
        let sent = blob.withUnsafeBufferPointer { base in
            let values: [UnsafePointer<CChar>?] = offsets.map {
                UnsafeRawPointer(base.baseAddress! + $0).assumingMemoryBound(to: CChar.self)
            }
            return PQsendQueryPrepared(raw, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard sent == 1 else { throw failure(.connection) }
        return try finish(until: deadline)
    }

    /// Runs SQL text by the simple protocol (several statements, no parameters).
    func execute(_ sql: String, until deadline: ContinuousClock.Instant) throws(PostgresError) {
        guard PQsendQuery(raw, sql) == 1 else { throw failure(.connection) }
        _ = try finish(until: deadline)
    }

    /// The notifications that have arrived, reading what the socket holds without waiting.
    func notifications() throws(PostgresError) -> [[UInt8]] {
        guard PQconsumeInput(raw) == 1 else { throw failure(.connection) }
        var payloads: [[UInt8]] = []
        while let notice = PQnotifies(raw) {
            let extra = notice.pointee.extra!
            payloads.append(extra.withMemoryRebound(to: UInt8.self, capacity: strlen(extra)) { Array(UnsafeBufferPointer(start: $0, count: strlen(extra))) })
            PQfreemem(notice)
        }
        return payloads
    }

    /// Waits until the socket has something to read or `deadline` passes.
    /// - Returns: whether there is something to read.
    func waitForInput(until deadline: ContinuousClock.Instant) throws(PostgresError) -> Bool {
        do {
            try wait(reading: true, writing: false, until: deadline)
            return true
        } catch where error.kind == .timeout {
            return false
        }
    }

    /// Waits until the socket has something to read, `wake` is signalled or `deadline` passes.
    /// - Returns: whether the socket has something to read (it may also when woken).
    func waitForInput(until deadline: ContinuousClock.Instant, orWake wake: WakeSignal) throws(PostgresError) -> Bool {
        guard let milliseconds = Self.pollMilliseconds(until: deadline) else { return false }
        var descriptors = [pollfd(fd: PQsocket(raw), events: Int16(POLLIN), revents: 0), pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, wake.descriptor >= 0 ? 2 : 1, milliseconds)
        if ready < 0, errno != EINTR { throw PostgresError(.connection, "poll failed: errno \(errno)") }
        if descriptors[1].revents != 0 { wake.drain() }
        return ready > 0 && descriptors[0].revents != 0
    }

    /// The name of the prepared statement for `sql`, preparing it first if needed.
    private func statement(_ sql: String, types: [UInt32], until deadline: ContinuousClock.Instant) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        guard PQsendPrepare(raw, name, sql, Int32(types.count), types) == 1 else { throw failure(.connection) }
        _ = try finish(until: deadline)
        prepared[sql] = name
        return name
    }

    /// Sends what is buffered, then reads every result of the statement sent.
    private func finish(until deadline: ContinuousClock.Instant) throws(PostgresError) -> PostgresRows {
        while true {
            let flushed = PQflush(raw)
            if flushed == 0 { break }
            guard flushed > 0 else { throw failure(.connection) }
            try wait(reading: true, writing: true, until: deadline)
            guard PQconsumeInput(raw) == 1 else { throw failure(.connection) }
        }
        var rows = PostgresRows(rows: [], affected: 0)
        var refusal: PostgresError?
        while true {
            while PQisBusy(raw) == 1 {
                try wait(reading: true, writing: false, until: deadline)
                guard PQconsumeInput(raw) == 1 else { throw failure(.connection) }
            }
            guard let result = PQgetResult(raw) else { break }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK {
                rows = Self.rows(of: result)
            } else {
                let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
                let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? "error"
                refusal = PostgresError(.statement, message.trimmingNewlines, sqlState: state)
            }
        }
        if let refusal {
            throw PQstatus(raw) == CONNECTION_BAD ? PostgresError(.connection, refusal.message) : refusal
        }
        return rows
    }

    private static func rows(of result: OpaquePointer) -> PostgresRows {
        let count = Int(PQntuples(result))
        let columns = Int(PQnfields(result))
        var rows: [[[UInt8]?]] = []
        rows.reserveCapacity(count)
        for row in 0..<count {
            var values: [[UInt8]?] = []
            values.reserveCapacity(columns)
            for column in 0..<columns {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                    continue
                }
                let length = Int(PQgetlength(result, Int32(row), Int32(column)))
                let start = UnsafeRawPointer(PQgetvalue(result, Int32(row), Int32(column))!)
                values.append(Array(UnsafeRawBufferPointer(start: start, count: length)))
            }
            rows.append(values)
        }
        let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return PostgresRows(rows: rows, affected: affected)
    }

    /// Waits for the socket, at most until `deadline`.
    private func wait(reading: Bool, writing: Bool, until deadline: ContinuousClock.Instant) throws(PostgresError) {
        while true {
            guard let milliseconds = Self.pollMilliseconds(until: deadline) else { throw PostgresError(.timeout, "no answer before the deadline") }
            var events: Int16 = 0
            if reading { events |= Int16(POLLIN) }
            if writing { events |= Int16(POLLOUT) }
            var descriptor = pollfd(fd: PQsocket(raw), events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw PostgresError(.connection, "poll failed: errno \(errno)") }
        }
    }

    /// `poll`'s timeout until `deadline` (rounded up, at most a minute); `nil` once it passed.
    private static func pollMilliseconds(until deadline: ContinuousClock.Instant) -> Int32? {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return nil }
        return Int32(min(60_000, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1))
    }

    /// The connection's own error message as a ``PostgresError``.
    private func failure(_ kind: PostgresError.Kind) -> PostgresError {
        PostgresError(kind, PQerrorMessage(raw).map { String(cString: $0) }?.trimmingNewlines ?? "unknown error")
    }
}

extension String {
    /// The text on one line (libpq breaks its messages into indented lines and ends them with a break).
    var trimmingNewlines: String {
        split(whereSeparator: \.isNewline)
            .map { line in line.drop { $0 == " " || $0 == "\t" } }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
