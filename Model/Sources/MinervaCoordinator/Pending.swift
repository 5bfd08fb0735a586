public import MinervaJSON

/// What a session keeps for later, in one slot: a guarded target waiting for its `otherwise`
/// flow, or a deep link waiting for its root flow.
public enum Pending: Hashable, Sendable {
    /// A guarded target: resumes when its flow finishes with `success`.
    case guarded(PendingNavigation)
    /// A deep link into a flow later in `launch` than the session's: applied in the block that
    /// switches to that flow.
    case link(PendingLink)

    /// The guarded target, when that is what is kept.
    public var guarded: PendingNavigation? {
        if case .guarded(let target) = self { target } else { nil }
    }

    /// The deep link, when that is what is kept.
    public var link: PendingLink? {
        if case .link(let link) = self { link } else { nil }
    }

    /// The members of a stored pending link or target.
    public static let snapshotKeys: JSONKeys = ["guardNode", "flag", "steps", "operation", "navigator", "replacesStack", "url", "flowName"]

    /// Writes what is kept for storage: a target as ``PendingNavigation/writeSnapshot(into:)``
    /// does, a link as `{"operation": "deepLink", "url", "flowName"}`.
    public func writeSnapshot(into writer: inout JSONWriter) {
        switch self {
        case .guarded(let target):
            target.writeSnapshot(into: &writer)
        case .link(let link):
            writer.beginObject()
            writer.field("operation", PendingLink.operation)
            writer.field("url", link.url)
            writer.field("flowName", link.flow)
            writer.endObject()
        }
    }

    /// Reads what ``writeSnapshot(into:)`` wrote (a reader over ``snapshotKeys``).
    /// - Throws: ``JSONReadError`` when it is neither.
    public init(reader: JSONObjectReader) throws(JSONReadError) {
        if try reader.optionalString("operation") == PendingLink.operation {
            self = .link(PendingLink(url: try reader.string("url"), flow: try reader.string("flowName")))
        } else {
            self = .guarded(try PendingNavigation(reader: reader))
        }
    }
}

/// A deep link kept until the session reaches its flow (onboarding → sign-in → main).
public struct PendingLink: Hashable, Sendable {
    /// The `operation` a pending link shows.
    public static let operation = "deepLink"
    /// The link as it was given.
    public let url: String
    /// The flow its route belongs to.
    public let flow: String

    /// Creates a pending link.
    public init(url: String, flow: String) {
        self.url = url
        self.flow = flow
    }
}
