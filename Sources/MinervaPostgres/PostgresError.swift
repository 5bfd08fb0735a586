/// What went wrong talking to PostgreSQL.
struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// How the call failed, which decides what becomes of its connection.
    enum Kind: Sendable {
        /// The server refused the statement (a constraint, a deadlock); the connection is fine.
        case statement
        /// The connection failed or broke: the database is down or unreachable.
        case connection
        /// The deadline passed without an answer (a frozen database): the connection is dropped.
        case timeout
    }

    let kind: Kind
    /// PostgreSQL's message, or what the client saw.
    let message: String
    /// The SQLSTATE code of a refused statement (`40P01` for a deadlock), if any.
    let sqlState: String?

    init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    /// Whether running the transaction again may succeed: a deadlock or a serialization failure.
    var isTransient: Bool {
        sqlState == "40P01" || sqlState == "40001"
    }

    var description: String {
        switch kind {
        case .statement: "PostgreSQL refused a statement (\(sqlState ?? "?")): \(message)"
        case .connection: "PostgreSQL cannot be reached: \(message)"
        case .timeout: "PostgreSQL did not answer in time: \(message)"
        }
    }
}
