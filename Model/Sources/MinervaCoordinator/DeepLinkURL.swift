/// A deep link taken apart: path segments (percent-decoded) and query parameters.
struct DeepLinkURL {
    /// The path's segments, empty ones (trailing or doubled slashes) dropped.
    let segments: [String]
    /// Query parameters in order.
    let query: [(name: String, value: String)]

    /// Reads `/users/42?tab=x`, `scheme://users/42` or (a universal link)
    /// `https://HOST/users/42` with one of `hosts`; `nil` when it is none of these.
    init?(_ text: String, scheme: String?, hosts: [String] = []) {
        var rest = Substring(text)
        if let separator = Self.schemeSeparator(in: rest) {
            let given = rest[..<separator].lowercased()
            rest = rest[rest.index(separator, offsetBy: 3)...]
            if given == scheme?.lowercased() {
                // scheme://users/42: what follows the scheme is the path.
            } else if given == "https", let host = Self.host(of: rest), hosts.contains(host.lowercased()) {
                rest = rest[host.endIndex...]
            } else {
                return nil
            }
        } else {
            guard rest.hasPrefix("/") else { return nil }
        }
        // Bytes, not characters: the separators are ASCII, and a link is read on every deep link.
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        var queryText: Substring = ""
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            queryText = rest[rest.utf8.index(after: mark)...]
            rest = rest[..<mark]
        }
        segments = rest.utf8.split(separator: UInt8(ascii: "/")).map { Self.percentDecoded(Substring($0), plusIsSpace: false) }
        query = queryText.utf8.split(separator: UInt8(ascii: "&")).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (
                Self.percentDecoded(Substring(parts[0]), plusIsSpace: true),
                parts.count > 1 ? Self.percentDecoded(Substring(parts[1]), plusIsSpace: true) : ""
            )
        }
    }

    /// The host a URL's text starts with (after `://`), up to its path, query or fragment.
    static func host(of rest: Substring) -> Substring? {
        let end = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        return end == rest.startIndex ? nil : rest[..<end]
    }

    /// Where `://` starts, if the text has a scheme.
    static func schemeSeparator(in text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") { return nil }
            if byte == UInt8(ascii: ":"), bytes[index...].starts(with: "://".utf8) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// Decodes `%XX` escapes (and `+` in queries); malformed escapes stay as written.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
        // Most segments have nothing to decode: no copy through bytes then.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusIsSpace) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes a path segment: everything but unreserved characters becomes `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
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

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension AppDescription.Route {
    /// The path parameters when `segments` match this route's pattern.
    func match(_ segments: [String]) -> [String: String]? {
        guard segments.count == self.segments.count else { return nil }
        var bindings: [String: String] = [:]
        for (pattern, segment) in zip(self.segments, segments) {
            if pattern.hasPrefix(":") {
                bindings[String(pattern.dropFirst())] = segment
            } else if pattern != segment {
                return nil
            }
        }
        return bindings
    }
}
