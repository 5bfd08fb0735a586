/// The checks RFC 9112 asks of a request's header block that libmicrohttpd 0.9.75 leaves to
/// the server: one clear framing and no NUL or other control byte in a field.
///
/// A request that fails them is malformed at the HTTP level: it is answered `400` before
/// anything else and its connection is closed, since where its body ends is not certain.
enum RequestFraming {
    /// What is wrong with a request's header block, if anything.
    /// - Parameters:
    ///   - version: the request line's version (`HTTP/1.1`, `HTTP/1.0`).
    ///   - headers: the header fields as received, names lower-cased, values with every byte
    ///     libmicrohttpd reports.
    /// - Returns: a message a person can act on, or `nil` when the block is sound.
    /// - Complexity: O(n) in the bytes of the header block.
    static func problem(version: String, headers: [(name: String, value: String)]) -> String? {
        var hosts = 0
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        for (name, value) in headers {
            if let problem = controlCharacterProblem(name: name, value: value) { return problem }
            switch name {
            case "host": hosts += 1
            case "content-length": contentLengths.append(value)
            case "transfer-encoding": transferEncodings.append(value)
            default: break
            }
        }
        if version == "HTTP/1.1", hosts == 0 {
            return "an HTTP/1.1 request must carry a Host header field"
        }
        if hosts > 1 {
            return "the request carries \(hosts) Host header fields; send exactly one"
        }
        if Set(contentLengths).count > 1 {
            return "the request carries differing Content-Length values; send exactly one"
        }
        if !transferEncodings.isEmpty {
            if version != "HTTP/1.1" {
                return "Transfer-Encoding is not allowed in an \(version) request; send Content-Length"
            }
            if !contentLengths.isEmpty {
                return "the request carries both Transfer-Encoding and Content-Length; send one of them"
            }
            guard transferEncodings.count == 1, transferEncodings[0].lowercased() == "chunked" else {
                return "the only Transfer-Encoding accepted is 'chunked'"
            }
        }
        return nil
    }

    /// A NUL, CR, LF or other control byte (horizontal tab aside) in a field (RFC 9110 §5.5), or
    /// whitespace between a field's name and its colon (RFC 9112 §5.1).
    private static func controlCharacterProblem(name: String, value: String) -> String? {
        func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        if name.utf8.contains(where: isControl) {
            return "a header field name contains a control character"
        }
        if name.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == 0x09 }) {
            return "header field '\(name.prefix(64))' has whitespace before its colon"
        }
        if value.utf8.contains(where: isControl) {
            let what = value.utf8.contains(0) ? "a NUL byte" : "a control character"
            return "the value of header field '\(name.prefix(64))' contains \(what)"
        }
        return nil
    }
}
