/// Percent-decoding of a request's path and query arguments: the one place it happens.
///
/// libmicrohttpd is told to leave escapes alone (its own decoding hands over a C string, so a
/// `%00` would cut the path short unseen); every byte the router and the API see went through
/// here exactly once.
public enum PercentDecoding {
    /// Why a path or query argument cannot be decoded.
    public enum Failure: Error, Sendable, Equatable {
        /// It holds a NUL byte, raw or as `%00`.
        case nul
        /// A `%` not followed by two hex digits.
        case badEscape
        /// The decoded bytes are not UTF-8.
        case notUTF8
    }

    /// Decodes `%XX` escapes.
    /// - Parameter bytes: the bytes as sent.
    /// - Returns: the decoded text; its bytes are exactly the decoded bytes.
    /// - Throws: ``Failure`` for a NUL byte, a malformed escape or bytes that are not UTF-8.
    /// - Complexity: O(n) in the number of bytes.
    public static func decode(_ bytes: some Collection<UInt8>) throws(Failure) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var byte = bytes[index]
            bytes.formIndex(after: &index)
            if byte == UInt8(ascii: "%") {
                guard index != bytes.endIndex, let high = hexValue(bytes[index]) else { throw .badEscape }
                bytes.formIndex(after: &index)
                guard index != bytes.endIndex, let low = hexValue(bytes[index]) else { throw .badEscape }
                bytes.formIndex(after: &index)
                byte = high << 4 | low
            }
            guard byte != 0 else { throw .nul }
            decoded.append(byte)
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
