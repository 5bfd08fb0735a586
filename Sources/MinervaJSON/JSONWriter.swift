/// Writes compact JSON text straight into a byte buffer.
///
/// State documents and diffs are written on every request; composing them here avoids
/// building intermediate values and is tested against Foundation's own parser.
public struct JSONWriter: Sendable {
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    /// Creates an empty writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object (`{`).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes an object (`}`).
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array (`[`).
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes an array (`]`).
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object key; the next write is its value.
    /// - Parameter key: the key, escaped as needed.
    public mutating func key(_ key: String) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    /// Writes a string value, or `null` when absent.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var magnitude = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
        needsComma = true
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes any ``JSONValue``; object keys come out sorted so the text is deterministic.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number):
            separate()
            bytes.append(contentsOf: number.description.utf8)
            needsComma = true
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for memberKey in members.keys.sorted() {
                key(memberKey)
                self.value(members[memberKey]!)
            }
            endObject()
        }
    }

    /// Writes a value given as JSON text, byte for byte: for values kept in their JSON form, such
    /// as a cell's canonical content.
    /// - Parameter json: one complete, valid JSON value in UTF-8, without surrounding white
    ///   space. It is not checked: invalid text makes the whole document invalid.
    /// - Complexity: O(n) in the length of `json`.
    public mutating func json(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Writes a key and its string value.
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }

    /// Writes a key and its integer value.
    public mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    /// Writes a key and its boolean value.
    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `text` quoted, appending runs that need no escaping in one piece.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                writeEscaped(byte)
                runStart = index + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}

extension JSONWriter {
    /// Writes `value` as its canonical JSON text (see ``JSONValue/canonicalJSON``).
    /// - Complexity: O(n) in the size of the value, plus sorting each object's keys.
    public mutating func canonicalValue(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): canonicalInt(number)
        case .double(let number):
            if let integer = Int(exactly: number) {
                canonicalInt(integer)
            } else if number.isFinite {
                json(Array(number.description.utf8))
            } else {
                null()
            }
        case .string(let text):
            separate()
            writeCanonicalString(text)
            needsComma = true
        case .array(let elements):
            beginArray()
            for element in elements { canonicalValue(element) }
            endArray()
        case .object(let members):
            beginObject()
            // Sorts the members' indices (on the stack when small), not copies of the members.
            // `String`'s `<` compares normalised text, so this is also the order of the NFC keys.
            withUnsafeTemporaryAllocation(of: [String: JSONValue].Index.self, capacity: members.count) { buffer in
                var count = 0
                var index = members.startIndex
                while index != members.endIndex {
                    buffer.initializeElement(at: count, to: index)
                    count += 1
                    members.formIndex(after: &index)
                }
                let order = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
                if count <= 8 {
                    // Insertion sort: a few comparisons, no closure context.
                    for next in order.indices.dropFirst() {
                        let current = order[next]
                        let currentKey = members[current].key
                        var slot = next
                        while slot > 0, currentKey < members[order[slot - 1]].key {
                            order[slot] = order[slot - 1]
                            slot -= 1
                        }
                        order[slot] = current
                    }
                } else {
                    var all = order
                    all.sort { members[$0].key < members[$1].key }
                }
                for index in order {
                    let (memberKey, member) = members[index]
                    separate()
                    writeCanonicalString(memberKey)
                    bytes.append(UInt8(ascii: ":"))
                    needsComma = false
                    canonicalValue(member)
                }
                _ = order.deinitialize()
            }
            endObject()
        }
    }

    /// Writes an integer's digits through a small stack buffer.
    private mutating func canonicalInt(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20  // UInt64.max has 20 digits
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
        needsComma = true
    }

    /// Writes `text` quoted, in Unicode normalization form C. ASCII text is already in it; text
    /// that needs neither escaping nor normalising is appended in one piece.
    ///
    /// `String._nfcCodeUnits` is the standard library's own normaliser, the one its `==` and `<`
    /// compare with; there is no other without Foundation.
    private mutating func writeCanonicalString(_ text: String) {
        var text = text
        let written = text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        guard !written else { return }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            writeString(text)
        } else {
            writeString(String(decoding: text._nfcCodeUnits, as: UTF8.self))
        }
    }
}
