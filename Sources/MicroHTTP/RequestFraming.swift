/// The checks RFC 9112 asks of a request's header block that libmicrohttpd 0.9.75 leaves to
/// the server: one clear framing and no NUL or other control byte in a field.
///
/// A request that fails them is malformed at the HTTP level: it is answered `400` before
/// anything else and its connection is closed, since where its body ends is not certain.
/// The fields are checked as they are read (``read(name:value:)``), in the same pass over their
/// bytes that lower-cases the names.
struct RequestFraming {
    private var hosts = 0
    private var contentLengths: [String] = []
    private var transferEncodings: [String] = []
    /// The first field's problem, if any.
    private var fieldProblem: String?

    /// Reads one header field as libmicrohttpd received it: its name lower-cased, its value as
    /// text, both checked on the way.
    /// - Complexity: O(n) in the field's bytes, one pass over the name and one over the value.
    mutating func read(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> (name: String, value: String) {
        var nameControl = false
        var nameSpace = false
        let lowered = String(unsafeUninitializedCapacity: name.count) { buffer in
            for (index, byte) in name.enumerated() {
                nameControl = nameControl || Self.isControl(byte)
                nameSpace = nameSpace || byte == UInt8(ascii: " ") || byte == 0x09
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return name.count
        }
        var valueControl = false
        var valueNUL = false
        for byte in value where Self.isControl(byte) {
            valueControl = true
            valueNUL = valueNUL || byte == 0
        }
        let text = String(decoding: value, as: UTF8.self)
        if fieldProblem == nil {
            if nameControl {
                fieldProblem = "a header field name contains a control character"
            } else if nameSpace {
                fieldProblem = "header field '\(lowered.prefix(64))' has whitespace before its colon"
            } else if valueControl {
                fieldProblem = "the value of header field '\(lowered.prefix(64))' contains \(valueNUL ? "a NUL byte" : "a control character")"
            }
        }
        switch lowered {
        case "host": hosts += 1
        case "content-length": contentLengths.append(text)
        case "transfer-encoding": transferEncodings.append(text)
        default: break
        }
        return (lowered, text)
    }

    /// What is wrong with the header block read so far, if anything.
    /// - Parameter version: the request line's version (`HTTP/1.1`, `HTTP/1.0`).
    /// - Returns: a message a person can act on, or `nil` when the block is sound.
    func problem(version: String) -> String? {
        if let fieldProblem { return fieldProblem }
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

    /// What is wrong with a header block given as text, if anything (see ``problem(version:)``).
    /// - Parameters:
    ///   - version: the request line's version.
    ///   - headers: the header fields, names lower-cased, values with every byte received.
    static func problem(version: String, headers: [(name: String, value: String)]) -> String? {
        var framing = RequestFraming()
        for (name, value) in headers {
            var name = name
            var value = value
            name.withUTF8 { name in
                value.withUTF8 { value in _ = framing.read(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value)) }
            }
        }
        return framing.problem(version: version)
    }

    /// A NUL, CR, LF or other control byte (horizontal tab aside): not allowed in a field (RFC
    /// 9110 §5.5); whitespace between a field's name and its colon is not either (RFC 9112 §5.1).
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }
}
