extension MinervaConnection {
    /// The app the server runs now (`GET /v1/app`): its screens with their titles and params,
    /// its root or root flows, and its routes.
    /// - Returns: the app description.
    /// - Throws: ``MinervaError`` for an error answer.
    public func app() async throws -> AppDescription {
        let client = client()
        return try await retryPolicy.run { try await client.getApp().ok.body.json }
    }
}

extension MinervaSession {
    /// The app the server runs now (`GET /v1/app`); see ``MinervaConnection/app()``.
    /// - Returns: the app description.
    /// - Throws: ``MinervaError`` for an error answer.
    public nonisolated func app() async throws -> AppDescription {
        try await connection.app()
    }
}
