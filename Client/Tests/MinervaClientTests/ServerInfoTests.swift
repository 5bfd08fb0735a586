import MinervaClient
import MinervaModel
import Testing

/// `GET /v1/server` through the client: the model version the server runs is the one the client
/// links (both build `Model/`), and the limits are the server's flags.
@Suite struct ServerInfoTests {
    @Test func theServerNamesTheModelTheClientRunsAndItsLimits() async throws {
        try await withLiveServer(["--max-nodes", "12", "--max-ui-bytes", "100"]) { server in
            let info = try await server.connection().server()
            #expect(info.modelVersion == ModelVersion.current)
            #expect(info.limits.maxNodes == 12 && info.limits.maxUIBytes == 100)
            #expect(info.limits.listHistoryBudget == info.limits.maxSessionBytes / 2)
            #expect(info.adminAnalytics == false)
        }
    }

    @Test func theAppOfASessionsVersionIsTheAppItRuns() async throws {
        try await withTabsSession { session in
            let state = await session.state
            let app = try await session.connection.app(version: state.appVersion)
            #expect(try await app == session.app() && app.version == state.appVersion)
            let error = try await #require(throws: MinervaError.self) { try await session.connection.app(version: "0000") }
            #expect(error.status == 404 && error.code == .notFound)
        }
    }

    @Test func aRemovedNodeIsRefusedAsRemoved() async throws {
        try await withTabsSession { session in
            let pushed = try await session.push("profile", params: ["userId": "1"])
            let phone = try await MinervaSession.resume(on: session.connection, id: session.id, token: session.token)
            _ = try await phone.pop()
            _ = try await session.refresh()  // at the version the pop made: `If-Match` holds, the node does not
            let error = try await #require(throws: MinervaError.self) { try await session.push("settings", from: pushed.focus) }
            #expect(error.status == 409 && error.code == .removed)
        }
    }
}
