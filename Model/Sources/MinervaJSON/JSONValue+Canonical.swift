extension JSONValue {
    /// The value as canonical JSON text: two values have the same text exactly when they are
    /// equal as JSON (RFC 8259) compares them, so a byte comparison can stand in for a
    /// comparison of values.
    ///
    /// The text is what ``JSONWriter/value(_:)`` writes (compact, object keys sorted), with the
    /// spellings of one number made one:
    /// - A number with an integer value that fits in `Int` is written as an integer: `1.0`, `1e2`
    ///   and `-0.0` become `1`, `100` and `0`. Any other number is written as the shortest text
    ///   that reads back as the same `Double` (`0.5`, `1e+20`), which no integer equals.
    /// - Strings and object keys keep their UTF-8 as given (escaped as ``JSONWriter`` escapes
    ///   them): text in another Unicode normalization form is other text, as RFC 8259 compares
    ///   strings, although `String`'s `==` calls them equal. Clients get their strings back as
    ///   they sent them.
    /// - Object members are sorted by key (`String`'s `<`).
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
