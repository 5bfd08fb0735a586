/// The escaping of names in the stores' compact analytics text: `%`, space, tab, newline, `:` and
/// `,` become `%XX`, so fields split on them unambiguously whatever a screen is called.
enum AnalyticsText {
    /// A name with its separators escaped.
    static func escape(_ name: String) -> String {
        guard name.utf8.contains(where: { isSpecial($0) }) else { return name }
        var bytes: [UInt8] = []
        for byte in name.utf8 {
            guard isSpecial(byte) else {
                bytes.append(byte)
                continue
            }
            let digits = Array("0123456789ABCDEF".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The fields of `text` between `separator`s, split through its UTF-8 view: no grapheme
    /// breaking, which splitting a string's characters pays for every character (the
    /// separators are ASCII, and escaped inside names).
    static func split(_ text: Substring, on separator: Unicode.Scalar, omittingEmpty: Bool = true) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: separator), omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }

    /// A name escaped by ``escape(_:)`` as it was.
    static func unescape<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%"), let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                bytes.append(byte)
                continue
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "%") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
