/// Client input as messages quote it: at most 64 characters, control characters escaped, `…`
/// when shortened. `description` adds the quotes: `'sideways'`.
public struct Excerpt: CustomStringConvertible, Sendable {
    /// The input as given.
    public let text: String

    /// Wraps client input for a message.
    public init(_ text: String) {
        self.text = text
    }

    /// The excerpt without quotes.
    public var unquoted: String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < 64 else { return result + "…" }
            result += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
            count += 1
        }
        return result
    }

    public var description: String { "'" + unquoted + "'" }

    /// The message for a value that is none of an enum's, naming those it accepts:
    /// `field 'style' is 'sideways'; use one of: automatic, fullScreen, …`.
    /// - Parameters:
    ///   - text: the value given.
    ///   - field: the field's name.
    ///   - kind: what the name is (`field`, `query parameter`).
    public static func unknownValue<T: RawRepresentable & CaseIterable>(_ text: String, of field: String, kind: String = "field", as: T.Type) -> String
    where T.RawValue == String {
        "\(kind) '\(field)' is \(Excerpt(text)); use one of: \(T.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
