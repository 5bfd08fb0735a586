public import OpenAPIRuntime

/// One entry of a session's change log: `added`, `removed`, `finished`, `flowChanged`,
/// `stackChanged`, `paramsChanged`, `tabSelected`, `sizeClassChanged`, `presentationChanged`,
/// `flagsChanged`, `pendingChanged`, `uiChanged`, `resultConsumed`, `listChanged` or
/// `appChanged`, each with the fields `openapi.yaml` documents for it.
///
/// The set of event types is open: a type that a newer server adds arrives as ``unknown(_:)``
/// with its raw JSON, so that an app built today keeps following a session after the server
/// grows. (The generated client's `Components.Schemas.Event` is this type, by the generator's
/// `typeOverrides`.)
public enum SessionEvent: Codable, Hashable, Sendable {
    case added(Components.Schemas.AddedEvent)
    case removed(Components.Schemas.RemovedEvent)
    case finished(Components.Schemas.FinishedEvent)
    case stackChanged(Components.Schemas.StackChangedEvent)
    case tabSelected(Components.Schemas.TabSelectedEvent)
    case flagsChanged(Components.Schemas.FlagsChangedEvent)
    case pendingChanged(Components.Schemas.PendingChangedEvent)
    case listChanged(Components.Schemas.ListChangedEvent)
    case appChanged(Components.Schemas.AppChangedEvent)
    /// The session switched root flows (its flags made the launch rules choose another).
    case flowChanged(Components.Schemas.FlowChangedEvent)
    /// A node's params changed in place.
    case paramsChanged(Components.Schemas.ParamsChangedEvent)
    /// The device's horizontal size class changed (a split view collapses or expands).
    case sizeClassChanged(Components.Schemas.SizeClassChangedEvent)
    /// The user moved a sheet to another detent.
    case presentationChanged(Components.Schemas.PresentationChangedEvent)
    /// A node's UI state was replaced.
    case uiChanged(Components.Schemas.UIChangedEvent)
    /// The parent's client took the result a flow left on it.
    case resultConsumed(Components.Schemas.ResultConsumedEvent)
    /// An event of a type this client does not know.
    case unknown(UnknownSessionEvent)

    private enum CodingKeys: String, CodingKey {
        case type
    }

    /// Reads an event by its `type`; a type this client does not know becomes ``unknown(_:)``.
    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
        switch type {
        case "added": self = .added(try .init(from: decoder))
        case "removed": self = .removed(try .init(from: decoder))
        case "finished": self = .finished(try .init(from: decoder))
        case "stackChanged": self = .stackChanged(try .init(from: decoder))
        case "tabSelected": self = .tabSelected(try .init(from: decoder))
        case "flagsChanged": self = .flagsChanged(try .init(from: decoder))
        case "pendingChanged": self = .pendingChanged(try .init(from: decoder))
        case "listChanged": self = .listChanged(try .init(from: decoder))
        case "appChanged": self = .appChanged(try .init(from: decoder))
        case "flowChanged": self = .flowChanged(try .init(from: decoder))
        case "paramsChanged": self = .paramsChanged(try .init(from: decoder))
        case "sizeClassChanged": self = .sizeClassChanged(try .init(from: decoder))
        case "presentationChanged": self = .presentationChanged(try .init(from: decoder))
        case "uiChanged": self = .uiChanged(try .init(from: decoder))
        case "resultConsumed": self = .resultConsumed(try .init(from: decoder))
        default: self = .unknown(try .init(from: decoder))
        }
    }

    /// Writes the event as the server wrote it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .added(let event): try event.encode(to: encoder)
        case .removed(let event): try event.encode(to: encoder)
        case .finished(let event): try event.encode(to: encoder)
        case .stackChanged(let event): try event.encode(to: encoder)
        case .tabSelected(let event): try event.encode(to: encoder)
        case .flagsChanged(let event): try event.encode(to: encoder)
        case .pendingChanged(let event): try event.encode(to: encoder)
        case .listChanged(let event): try event.encode(to: encoder)
        case .appChanged(let event): try event.encode(to: encoder)
        case .flowChanged(let event): try event.encode(to: encoder)
        case .paramsChanged(let event): try event.encode(to: encoder)
        case .sizeClassChanged(let event): try event.encode(to: encoder)
        case .presentationChanged(let event): try event.encode(to: encoder)
        case .uiChanged(let event): try event.encode(to: encoder)
        case .resultConsumed(let event): try event.encode(to: encoder)
        case .unknown(let event): try event.encode(to: encoder)
        }
    }
}

/// An event of a type that a newer server added: the fields every event carries, its type and
/// its whole JSON object.
public struct UnknownSessionEvent: Codable, Hashable, Sendable {
    /// The event's `type`, as the server wrote it.
    public let type: String
    /// `seq`, `version`, `at` and `final`, which every event carries.
    public let fields: Components.Schemas.EventFields
    /// The whole event as the server wrote it.
    public let json: OpenAPIObjectContainer

    private enum CodingKeys: String, CodingKey {
        case type
    }

    /// Reads the event's type, common fields and whole object.
    public init(from decoder: any Decoder) throws {
        type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
        fields = try Components.Schemas.EventFields(from: decoder)
        json = try OpenAPIObjectContainer(from: decoder)
    }

    /// Writes the whole event back as it was read.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
