/// What the API allows, beyond the HTTP layer's own settings.
public struct ServerConfiguration: Sendable {
    /// The largest request body, reported in `413` messages.
    public var maxBodySize: Int
    /// Live sessions at most; more answer `503`.
    public var maxSessions: Int
    /// Events kept per session (at least 1,000 per API.md).
    public var eventHistory: Int
    /// List versions kept per node for `GET …/list?since=` (at least 32 per API.md).
    public var listHistory: Int
    /// Cells per list at most; more answer `422`.
    public var maxListItems: Int

    /// Creates a configuration.
    public init(
        maxBodySize: Int = 1 << 20, maxSessions: Int = 100_000, eventHistory: Int = 1000, listHistory: Int = 32,
        maxListItems: Int = 10_000
    ) {
        self.maxBodySize = maxBodySize
        self.maxSessions = maxSessions
        self.eventHistory = eventHistory
        self.listHistory = listHistory
        self.maxListItems = maxListItems
    }
}
