/// The rows a statement returned, copied out of libpq's result in binary format.
struct PostgresRows: Sendable {
    /// Each row's columns; `nil` for SQL NULL.
    let rows: [[[UInt8]?]]
    /// How many rows the statement changed (`UPDATE`, `INSERT`, `DELETE`).
    let affected: Int

    var count: Int { rows.count }

    /// An `int8`, `int4` or `int2` column.
    func int(_ row: Int, _ column: Int) -> Int {
        guard let bytes = rows[row][column] else { return 0 }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        switch bytes.count {
        case 2: return Int(Int16(truncatingIfNeeded: value))
        case 4: return Int(Int32(truncatingIfNeeded: value))
        default: return Int(Int64(bitPattern: value))
        }
    }

    /// A `float8` column.
    func double(_ row: Int, _ column: Int) -> Double {
        guard let bytes = rows[row][column], bytes.count == 8 else { return 0 }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return Double(bitPattern: value)
    }

    /// A `bytea` column.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        rows[row][column] ?? []
    }

    /// A `text` column.
    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: rows[row][column] ?? [], as: UTF8.self)
    }

    /// A `bool` column.
    func bool(_ row: Int, _ column: Int) -> Bool {
        rows[row][column] == [1]
    }
}
