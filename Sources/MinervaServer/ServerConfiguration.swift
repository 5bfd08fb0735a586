/// What the API allows, beyond the HTTP layer's own settings.
public struct ServerConfiguration: Sendable {
    /// The largest request body, reported in `413` messages.
    public var maxBodySize: Int
    /// Live sessions at most; more answer `503`.
    public var maxSessions: Int
    /// Events kept per session (at least 1,000 per API.md).
    public var eventHistory: Int

    /// Creates a configuration.
    public init(maxBodySize: Int = 1 << 20, maxSessions: Int = 100_000, eventHistory: Int = 1000) {
        self.maxBodySize = maxBodySize
        self.maxSessions = maxSessions
        self.eventHistory = eventHistory
    }
}
