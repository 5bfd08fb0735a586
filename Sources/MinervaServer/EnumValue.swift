import MinervaJSON

/// Reads an enum value; an unknown one is `422`, naming the allowed values.
/// - Parameters:
///   - field: the field's name in messages.
///   - kind: what the name is (`field`, `query parameter`).
func enumValue<T: RawRepresentable & CaseIterable>(_ text: String?, field: String, kind: String = "field", as: T.Type) throws(APIError) -> T?
where T.RawValue == String {
    guard let text else { return nil }
    guard let value = T(rawValue: text) else { throw .unprocessable(Excerpt.unknownValue(text, of: field, kind: kind, as: T.self)) }
    return value
}
