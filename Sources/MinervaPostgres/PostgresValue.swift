/// A statement parameter, sent in PostgreSQL's binary format (a text array in text format).
enum PostgresValue: Sendable {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case textArray([String])
    /// A one-dimensional array of the scalar type `element` (an OID), each value in its binary
    /// format or `nil` for NULL (see the factories below).
    case array(element: UInt32, [[UInt8]?])

    /// An `int8[]`.
    static func ints(_ values: [Int?]) -> PostgresValue {
        .array(element: 20, values.map { $0.map { bigEndian(UInt64(bitPattern: Int64($0))) } })
    }

    /// An `int4[]` (array positions, say).
    static func int32s(_ values: [Int32]) -> PostgresValue {
        .array(element: 23, values.map { value in (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (24 - 8 * $0)) } })
    }

    /// A `float8[]`.
    static func doubles(_ values: [Double?]) -> PostgresValue {
        .array(element: 701, values.map { $0.map { bigEndian($0.bitPattern) } })
    }

    /// A `bool[]`.
    static func bools(_ values: [Bool]) -> PostgresValue {
        .array(element: 16, values.map { [$0 ? 1 : 0] })
    }

    /// A `text[]` in binary format (NULLs allowed).
    static func texts(_ values: [String?]) -> PostgresValue {
        .array(element: 25, values.map { $0.map { Array($0.utf8) } })
    }

    /// A `text[]` of values given as their UTF-8 bytes.
    static func texts(utf8 values: [[UInt8]]) -> PostgresValue {
        .array(element: 25, values)
    }

    /// A `bytea[]`.
    static func byteArrays(_ values: [[UInt8]?]) -> PostgresValue {
        .array(element: 17, values)
    }

    /// The type's OID, given when the statement is prepared.
    var typeOID: UInt32 {
        switch self {
        case .int: 20  // int8
        case .bool: 16  // bool
        case .double: 701  // float8
        case .text: 25  // text
        case .bytes: 17  // bytea
        case .textArray: 1009  // text[]
        case .array(let element, _): Self.arrayTypes[element] ?? 0
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
        case .array(let element, let values): Self.binaryArray(element: element, values)
        }
    }

    /// The array type of each element type ``array(element:_:)`` is used with.
    private static let arrayTypes: [UInt32: UInt32] = [20: 1016, 23: 1007, 701: 1022, 16: 1000, 25: 1009, 17: 1001]

    /// An array in PostgreSQL's binary format (`array_recv`): dimensions, whether it holds NULLs,
    /// the element type, the length and lower bound (1), then each element's length (-1 for
    /// NULL) and bytes. An empty array has no dimensions.
    static func binaryArray(element: UInt32, _ values: [[UInt8]?]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + values.reduce(0) { $0 + 4 + ($1?.count ?? 0) })
        func append(_ value: Int32) {
            let bits = UInt32(bitPattern: value)
            bytes.append(contentsOf: [UInt8(truncatingIfNeeded: bits >> 24), UInt8(truncatingIfNeeded: bits >> 16), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits)])
        }
        append(values.isEmpty ? 0 : 1)
        append(values.contains { $0 == nil } ? 1 : 0)
        append(Int32(bitPattern: element))
        if !values.isEmpty {
            append(Int32(values.count))
            append(1)
        }
        for value in values {
            if let value {
                append(Int32(value.count))
                bytes.append(contentsOf: value)
            } else {
                append(-1)
            }
        }
        return bytes
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
