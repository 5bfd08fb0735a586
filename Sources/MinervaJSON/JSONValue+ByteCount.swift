extension JSONValue {
    /// How many bytes the value takes as JSON text (as ``JSONWriter`` writes it): what size
    /// limits on client-given values count.
    /// - Complexity: O(n) in the size of the value.
    public var encodedByteCount: Int {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        return writer.bytes.count
    }
}
