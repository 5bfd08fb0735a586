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

    /// An `int4[]` column of one dimension (binary format: dimensions, NULL flag, element type,
    /// length and lower bound, then each element's length and value); empty for NULL or no
    /// elements, and cut at a NULL element.
    func int32Array(_ row: Int, _ column: Int) -> [Int32] {
        guard let bytes = rows[row][column], bytes.count >= 12 else { return [] }
        func word(at offset: Int) -> Int32 {
            Int32(bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
        }
        guard word(at: 0) == 1, bytes.count >= 20 else { return [] }
        let count = Int(word(at: 12))
        var values: [Int32] = []
        values.reserveCapacity(count)
        var offset = 20
        for _ in 0..<count {
            guard offset + 8 <= bytes.count, word(at: offset) == 4 else { break }
            values.append(word(at: offset + 4))
            offset += 8
        }
        return values
    }
}
