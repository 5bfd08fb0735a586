/// A statement parameter, sent in PostgreSQL's binary format (a text array in text format).
enum PostgresValue: Sendable {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case textArray([String])
    /// A one-dimensional array of the array type `type` (an OID), already in its binary format
    /// (see the factories below, which write it).
    case array(type: UInt32, bytes: [UInt8])

    /// An `int8[]`.
    static func ints(_ values: [Int?]) -> PostgresValue {
        binaryArray(type: 1016, element: 20, values, byteCount: { _ in 8 }) { $1.appendBigEndian(UInt64(bitPattern: Int64($0))) }
    }

    /// An `int4[]` (array positions, say).
    static func int32s(_ values: [Int32]) -> PostgresValue {
        binaryArray(type: 1007, element: 23, values, byteCount: { _ in 4 }) { $1.appendBigEndian(UInt32(bitPattern: $0)) }
    }

    /// A `float8[]`.
    static func doubles(_ values: [Double?]) -> PostgresValue {
        binaryArray(type: 1022, element: 701, values, byteCount: { _ in 8 }) { $1.appendBigEndian($0.bitPattern) }
    }

    /// A `bool[]`.
    static func bools(_ values: [Bool]) -> PostgresValue {
        binaryArray(type: 1000, element: 16, values, byteCount: { _ in 1 }) { $1.append($0 ? 1 : 0) }
    }

    /// A `text[]` in binary format (NULLs allowed).
    static func texts(_ values: [String?]) -> PostgresValue {
        binaryArray(type: 1009, element: 25, values, byteCount: { $0.utf8.count }) { $1.append(contentsOf: $0.utf8) }
    }

    /// A `text[]` of values given as their UTF-8 bytes.
    static func texts(utf8 values: [[UInt8]]) -> PostgresValue {
        binaryArray(type: 1009, element: 25, values, byteCount: { $0.count }) { $1.append(contentsOf: $0) }
    }

    /// A `bytea[]`.
    static func byteArrays(_ values: [[UInt8]?]) -> PostgresValue {
        binaryArray(type: 1001, element: 17, values, byteCount: { $0.count }) { $1.append(contentsOf: $0) }
    }

    /// An array in PostgreSQL's binary format (`array_recv`), written into one buffer:
    /// dimensions, whether it holds NULLs, the element type, the length and lower bound (1),
    /// then each element's length (-1 for NULL) and bytes. An empty array has no dimensions.
    private static func binaryArray<Element>(
        type: UInt32, element: UInt32, _ values: [Element?], byteCount: (Element) -> Int, write: (Element, inout [UInt8]) -> Void
    ) -> PostgresValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + values.reduce(0) { $0 + 4 + ($1.map(byteCount) ?? 0) })
        bytes.appendBigEndian(UInt32(values.isEmpty ? 0 : 1))
        bytes.appendBigEndian(UInt32(values.contains { $0 == nil } ? 1 : 0))
        bytes.appendBigEndian(element)
        if !values.isEmpty {
            bytes.appendBigEndian(UInt32(values.count))
            bytes.appendBigEndian(UInt32(1))
        }
        for value in values {
            if let value {
                bytes.appendBigEndian(UInt32(byteCount(value)))
                write(value, &bytes)
            } else {
                bytes.appendBigEndian(UInt32.max)  // -1: NULL
            }
        }
        return .array(type: type, bytes: bytes)
    }

    /// An array without NULLs, in PostgreSQL's binary format.
    private static func binaryArray<Element>(
        type: UInt32, element: UInt32, _ values: [Element], byteCount: (Element) -> Int, write: (Element, inout [UInt8]) -> Void
    ) -> PostgresValue {
        binaryArray(type: type, element: element, values.map(Optional.some), byteCount: byteCount, write: write)
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
        case .array(let type, _): type
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
        case .array(_, let bytes): bytes
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8)
        bytes.appendBigEndian(value)
        return bytes
    }
}

extension [UInt8] {
    /// Appends an integer's bytes, most significant first (network order, as PostgreSQL's binary formats have it).
    fileprivate mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        for shift in stride(from: Value.bitWidth - 8, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
