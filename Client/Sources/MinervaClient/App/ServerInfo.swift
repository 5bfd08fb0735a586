/// What a server offers besides the app (`GET /v1/server`), and what a client needs to predict
/// its answers: the version of the navigation model its step runs and the limits it checks.
public struct ServerInfo: Codable, Hashable, Sendable {
    /// Whether the admin analytics paths answer (the server has an admin token).
    public var adminAnalytics: Bool
    /// The version of the navigation model the server's step runs; every answer to a change
    /// names it (`Minerva-Model-Version`). A client that runs the same version on the state it
    /// holds computes the same block.
    public var modelVersion: Int
    /// The limits every change is checked against.
    public var limits: Limits

    /// What every change is checked against inside the model's step.
    public struct Limits: Codable, Hashable, Sendable {
        /// Nodes per session at most.
        public var maxNodes: Int
        /// Bytes of one node's params as JSON at most (a flow's result value counts the same).
        public var maxParamBytes: Int
        /// Bytes of one node's UI state as JSON at most.
        public var maxUIBytes: Int
        /// Cells per list at most.
        public var maxListItems: Int
        /// Bytes of one list's cells at most.
        public var maxListBytes: Int
        /// Bytes of a whole session at most.
        public var maxSessionBytes: Int
        /// List versions kept per node for diffs from older versions.
        public var listHistory: Int
        /// Bytes the older versions of all of a session's lists may take together.
        public var listHistoryBudget: Int
    }
}

extension MinervaConnection {
    /// What the server offers and the model it runs (`GET /v1/server`).
    /// - Returns: the server's model version, its limits and what it offers.
    /// - Throws: ``MinervaError`` for an error answer.
    public func server() async throws -> ServerInfo {
        let client = client()
        return try await retryPolicy.run { try await client.getServer().ok.body.json }
    }
}
