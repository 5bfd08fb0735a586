/// Writes compact JSON text straight into a byte buffer.
///
/// State documents and diffs are written on every request; composing them here avoids
/// building intermediate values and is tested against Foundation's own parser.
///
/// A writer owns its output buffer, so it cannot be copied: pass it `inout`.
public struct JSONWriter: ~Copyable {
    private var buffer: ByteBuffer
    private var needsComma = false

    /// Creates an empty writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(capacity: Int = 512) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// The UTF-8 text written so far.
    public var bytes: [UInt8] {
        buffer.array
    }

    /// Opens an object (`{`).
    public mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes an object (`}`).
    public mutating func endObject() {
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array (`[`).
    public mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes an array (`]`).
    public mutating func endArray() {
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object key known when the program is built; the next write is its value.
    /// - Parameter name: the key; it must need no escaping (no `"`, `\\` or control characters).
    public mutating func key(_ name: StaticString) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { name in
            assert(!name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }, "key needs escaping")
            buffer.append(name)
        }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes an object key that comes from data; the next write is its value.
    /// - Parameter name: the key, escaped as needed.
    public mutating func key(string name: String) {
        separate()
        writeString(name)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    /// Writes a string value made of `prefix` and `number` in decimal (an id such as `n42`)
    /// without building the string.
    /// - Parameter prefix: text that needs no escaping.
    public mutating func string(_ prefix: StaticString, _ number: Int) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        prefix.withUTF8Buffer { buffer.append($0) }
        writeDigits(number)
        buffer.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a string value, or `null` when absent.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        separate()
        writeDigits(value)
        needsComma = true
    }

    private mutating func writeDigits(_ value: Int) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        let start = buffer.count
        var magnitude = value.magnitude
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer.reverse(from: start)
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separate()
        buffer.append(value ? "true" : "false")
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        buffer.append("null")
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
            var text = number.description
            text.withUTF8 { buffer.append($0) }
            needsComma = true
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            if members.count == 1, let (memberKey, memberValue) = members.first {
                key(string: memberKey)
                self.value(memberValue)
            } else if !members.isEmpty {
                for (memberKey, memberValue) in members.sorted(by: { $0.key < $1.key }) {
                    key(string: memberKey)
                    self.value(memberValue)
                }
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
        json.withUnsafeBufferPointer { buffer.append($0) }
        needsComma = true
    }

    /// Writes a key and its string value.
    public mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }

    /// Writes a key and its integer value.
    public mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// Writes a key and its boolean value.
    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    private mutating func separate() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `text` quoted, appending runs that need no escaping in one piece.
    private mutating func writeString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                writeEscaped(byte)
                runStart = index + 1
            }
            if runStart < utf8.count { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            buffer.append("u00")
            buffer.append(Self.hexDigits[Int(byte >> 4)])
            buffer.append(Self.hexDigits[Int(byte & 0x0F)])
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
        case .int(let number): int(number)
        case .double(let number):
            if let integer = Int(exactly: number) {
                int(integer)
            } else if number.isFinite {
                json(Array(number.description.utf8))
            } else {
                null()
            }
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { canonicalValue(element) }
            endArray()
        case .object(let members):
            beginObject()
            // Sorts the members' indices (on the stack when small), not copies of the members.
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
                    key(string: memberKey)
                    canonicalValue(member)
                }
                _ = order.deinitialize()
            }
            endObject()
        }
    }
}
