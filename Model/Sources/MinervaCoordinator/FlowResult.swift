public import MinervaJSON

/// The last result a flow of one screen left on its parent: kept until the parent's client
/// takes it (``CoordinatorTree/consumeResult(of:screen:)``), so a client that did not follow the
/// events still sees it.
public struct FlowResult: Hashable, Sendable {
    /// How the flow ended.
    public let status: CoordinatorTree.FlowStatus
    /// The flow's value, for a `success` that gave one.
    public let value: JSONValue?
    /// The session version whose block wrote it.
    public let version: Int

    /// Creates a result; stores read them back.
    public init(status: CoordinatorTree.FlowStatus, value: JSONValue?, version: Int) {
        self.status = status
        self.value = value
        self.version = version
    }

    /// Writes `"status", "value"?, "version"` into an open object: the members the state document
    /// and a stored snapshot both give a held result.
    public func writeMembers(into writer: inout JSONWriter) {
        writer.field("status", status.rawValue)
        if let value {
            writer.key("value")
            writer.value(value)
        }
        writer.field("version", version)
    }
}
