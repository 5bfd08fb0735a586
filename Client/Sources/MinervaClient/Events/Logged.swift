/// What one event says changed, as its own type: the members of an event of one `type`.
public protocol EventChange: Codable, Hashable, Sendable {
    /// The event's `type`.
    static var type: String { get }
}

/// One change as the change log keeps it: what changed and the fields every event carries.
/// Read both by name: `event.node`, `event.seq`.
@dynamicMemberLookup
public struct Logged<Change: EventChange>: Codable, Hashable, Sendable {
    /// `seq`, `version`, `at`, `final` and `focus`.
    public var fields: EventFields
    /// What changed.
    public var change: Change

    private enum CodingKeys: String, CodingKey {
        case type
    }

    /// An event.
    public init(fields: EventFields, change: Change) {
        self.fields = fields
        self.change = change
    }

    /// Reads the event's fields and change from one JSON object.
    public init(from decoder: any Decoder) throws {
        fields = try EventFields(from: decoder)
        change = try Change(from: decoder)
    }

    /// Writes the event as one JSON object, with its `type`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Change.type, forKey: .type)
        try fields.encode(to: encoder)
        try change.encode(to: encoder)
    }

    /// A member of the change.
    public subscript<Value>(dynamicMember member: KeyPath<Change, Value>) -> Value {
        change[keyPath: member]
    }

    /// A field every event carries.
    public subscript<Value>(dynamicMember member: KeyPath<EventFields, Value>) -> Value {
        fields[keyPath: member]
    }
}
