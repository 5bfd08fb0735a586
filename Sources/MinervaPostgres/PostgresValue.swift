/// A statement parameter, sent in PostgreSQL's binary format (a text array in text format).
enum PostgresValue: Sendable {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case textArray([String])

    /// The type's OID, given when the statement is prepared.
    var typeOID: UInt32 {
        switch self {
        case .int: 20  // int8
        case .bool: 16  // bool
        case .double: 701  // float8
        case .text: 25  // text
        case .bytes: 17  // bytea
        case .textArray: 1009  // text[]
        }
    }

    /// 1 for binary, 0 for text.
    var format: Int32 {
        if case .textArray = self { return 0 }
        return 1
    }

    /// The value as it goes on the wire.
    var wireBytes: [UInt8] {
        switch self {
        case .int(let value): Self.bigEndian(UInt64(bitPattern: Int64(value)))
        case .bool(let value): [value ? 1 : 0]
        case .double(let value): Self.bigEndian(value.bitPattern)
        case .text(let value): Array(value.utf8)
        case .bytes(let value): value
        case .textArray(let values): Self.arrayLiteral(values)
        }
    }

    /// A text array literal and its terminating NUL: `{"a","b\"c"}`, every element quoted, its
    /// quotes and backslashes escaped, written byte by byte into one buffer (a notice's batch is
    /// escaped on every group commit).
    static func arrayLiteral(_ values: [String]) -> [UInt8] {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(3) { $0 + $1.utf8.count + 3 })
        bytes.append(UInt8(ascii: "{"))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(quote)
            for byte in value.utf8 {
                if byte == quote || byte == backslash { bytes.append(backslash) }
                bytes.append(byte)
            }
            bytes.append(quote)
        }
        bytes.append(UInt8(ascii: "}"))
        bytes.append(0)
        return bytes
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
