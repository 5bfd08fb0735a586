/// Reads the bearer token of an `Authorization` field.
enum BearerToken {

    /// The token of an `Authorization: Bearer <token>` field (RFC 6750): the scheme in any case,
    /// spaces around it and the token; `nil` for any other field or an empty token.
    static func parse(_ field: String) -> String? {
        var field = field
        return field.withUTF8 { bytes -> String? in
            func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = 0
            var end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            let scheme = "bearer".utf8
            guard end - start > scheme.count + 1 else { return nil }
            for (offset, letter) in scheme.enumerated() where bytes[start + offset] | 0x20 != letter { return nil }
            var tokenStart = start + scheme.count
            guard bytes[tokenStart] == UInt8(ascii: " ") else { return nil }
            while isSpace(bytes[tokenStart]) { tokenStart += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart..<end]), as: UTF8.self)
        }
    }
}
