extension MinervaConnection {
    /// The app the server runs now (`GET /v1/app`): its screens with their titles and params,
    /// its root or root flows, and its routes.
    /// - Returns: the app description.
    /// - Throws: ``MinervaError`` for an error answer.
    public func app() async throws -> AppDescription {
        let client = client()
        return try await retryPolicy.run { try await client.getApp().ok.body.json }
    }

    /// The app description of one version (`GET /v1/app/versions/{appVersion}`): the app a
    /// session whose state says `appVersion` runs, whichever the server serves to new sessions.
    /// It never changes, so a client may keep it for good.
    /// - Parameter version: a version, as a session's ``SessionState/appVersion`` names it.
    /// - Returns: the app description.
    /// - Throws: ``MinervaError``: 404 for a version no store keeps.
    public func app(version: String) async throws -> AppDescription {
        let client = client()
        return try await retryPolicy.run { try await client.getAppVersion(path: .init(appVersion: version)).ok.body.json }
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
