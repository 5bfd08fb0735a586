extension JSONValue {
    /// How many bytes the value takes as JSON text, exactly as ``JSONWriter`` writes it, counted
    /// without writing it: what size limits on client-given values count.
    /// - Complexity: O(n) in the size of the value.
    public var encodedByteCount: Int {
        switch self {
        case .null: return 4
        case .bool(let flag): return flag ? 4 : 5
        case .int(let number):
            var digits = 1
            var rest = number.magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            return number < 0 ? digits + 1 : digits
        case .double(let number): return number.description.utf8.count
        case .string(let text): return Self.encodedByteCount(of: text)
        case .array(let elements): return elements.reduce(max(2, elements.count + 1)) { $0 + $1.encodedByteCount }
        case .object(let members):
            return members.reduce(max(2, members.count + 1)) { $0 + Self.encodedByteCount(of: $1.key) + 1 + $1.value.encodedByteCount }
        }
    }

    /// The bytes of a string as a JSON string literal: quotes, and escapes as ``JSONWriter`` writes them.
    static func encodedByteCount(of text: String) -> Int {
        var count = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: count += 2
            case ..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }
}
