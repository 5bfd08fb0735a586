/// A string from a set of values that may grow; it reads and writes as the bare string.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    /// A value from its string (any string: the set may grow).
    init(rawValue: String)
}

extension OpenEnum {
    /// Reads the bare string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The value as the server writes it.
    public var description: String { rawValue }
}
