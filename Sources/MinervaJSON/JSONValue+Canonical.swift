extension JSONValue {
    /// The value as canonical JSON text: two values have the same text exactly when they are
    /// equal (`==`), so a byte comparison can stand in for a comparison of values.
    ///
    /// The text is what ``JSONWriter/value(_:)`` writes (compact, object keys sorted), with the
    /// spellings that `==` does not tell apart made one:
    /// - A number with an integer value that fits in `Int` is written as an integer: `1.0`, `1e2`
    ///   and `-0.0` become `1`, `100` and `0`. Any other number is written as the shortest text
    ///   that reads back as the same `Double` (`0.5`, `1e+20`), which no integer equals.
    /// - Strings and object keys are written in Unicode normalization form C, the form in which
    ///   `String`'s `==` compares them: `"e\u{301}"` is written as `"é"`, the Kelvin sign as `K`.
    ///   They are escaped as ``JSONWriter`` escapes them (only `"`, `\` and control characters).
    /// - Object members are sorted by key: by the Unicode scalars of the normalised keys, which is
    ///   `String`'s `<`.
    ///
    /// Infinite and NaN doubles, which JSON cannot express and ``JSONParser`` never produces, are
    /// written as `null`: for them alone, equal text does not mean equal values.
    /// - Complexity: O(n) in the size of the value, plus sorting each object's keys.
    public var canonicalJSON: [UInt8] {
        var writer = JSONWriter(capacity: 64)
        writer.canonicalValue(self)
        let written = writer.bytes
        // The writer's spare capacity would stay allocated for as long as the text is kept.
        return [UInt8](unsafeUninitializedCapacity: written.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: written)
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
        case .string(let text): string(canonicalString(text))
        case .array(let elements):
            beginArray()
            for element in elements { canonicalValue(element) }
            endArray()
        case .object(let members):
            beginObject()
            for memberKey in members.keys.sorted() {
                key(canonicalString(memberKey))
                canonicalValue(members[memberKey]!)
            }
            endObject()
        }
    }
}

/// `text` in Unicode normalization form C. ASCII text is already in it.
///
/// `String._nfcCodeUnits` is the standard library's own normaliser, the one its `==` and `<`
/// compare with; there is no other without Foundation.
private func canonicalString(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    return String(decoding: text._nfcCodeUnits, as: UTF8.self)
}
