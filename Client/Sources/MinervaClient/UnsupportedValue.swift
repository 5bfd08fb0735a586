/// A value of an open set that a request cannot carry: requests take only the values the
/// contract lists (a value read from a later release's answer may not be one of them).
public struct UnsupportedValue: Error, CustomStringConvertible {
    /// The request field.
    public let field: String
    /// The value.
    public let value: String

    /// Names the field and the value.
    public var description: String { "'\(value)' is not a value the server takes for '\(field)'" }
}

extension OpenEnum {
    /// The same value as a request field's generated enum.
    /// - Throws: ``UnsupportedValue`` when the request field does not take it.
    func requestValue<Value: RawRepresentable<String>>(for field: String) throws -> Value {
        guard let value = Value(rawValue: rawValue) else { throw UnsupportedValue(field: field, value: rawValue) }
        return value
    }
}
