/// An event of a type that a newer server added: its type, the fields every event carries and
/// its whole JSON object.
public struct UnknownEvent: Codable, Hashable, Sendable {
    /// The event's `type`, as the server wrote it.
    public let type: String
    /// `seq`, `version`, `at`, `final` and `focus`, which every event carries.
    public let fields: EventFields
    /// The whole event as the server wrote it.
    public let json: [String: JSONValue]

    private enum CodingKeys: String, CodingKey {
        case type
    }

    /// Reads the event's type, common fields and whole object.
    public init(from decoder: any Decoder) throws {
        type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
        fields = try EventFields(from: decoder)
        json = try [String: JSONValue](from: decoder)
    }

    /// Writes the whole event back as it was read.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
