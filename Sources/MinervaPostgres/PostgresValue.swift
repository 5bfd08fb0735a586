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
        case .textArray(let values):
            // An array literal: every element quoted, with its quotes and backslashes escaped.
            Array(("{" + values.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}").utf8) + [0]
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
