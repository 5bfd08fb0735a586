import Foundation
import MinervaClient
import Testing

/// Creating, resuming, reading and deleting sessions on the real server (the tabs app: tabs
/// `home` and `account`).
@Suite struct SessionLifecycleTests {
    @Test func createAnswersTheFirstStateAndAToken() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let state = await session.state
            #expect(state.version == 1 && state.lastEvent == 0)
            #expect(state.tabs?.selected == "home")
            #expect(state.stackIDs(of: "tab:home") == ["n1"] && state.stackIDs(of: "tab:account") == ["n2"])
            #expect(session.id.hasPrefix("s_") && session.token.count == 43)
            #expect(await session.version == 1)
        }
    }

    @Test func theAppNamesItsScreensTitlesAndRoutes() async throws {
        try await withLiveServer { server in
            let app = try await server.connection().app()
            #expect(app.name == "tabs" && app.version.count == 64)
            #expect(app.screens["profile"]?.title == "Profile" && app.screens["profile"]?.params == ["userId"])
            #expect(app.root?.tabs?.map(\.id) == ["home", "account"])
            #expect(app.routes.first?.path == "/users/:userId" && app.routes.first?.steps.first?.params["userId"] == ":userId")
            let session = try await MinervaSession.create(on: server.connection())
            #expect(await session.state.appVersion == app.version)
        }
    }

    @Test func theDemoAppOffersSampleCellsThatNameTheScreenATapShows() async throws {
        try await withLiveServer(app: nil) { server in
            let app = try await server.connection().app()
            let samples = try #require(app.screens["home"]?.sampleList)
            let targets = samples.sections.flatMap(\.items).compactMap { $0.content["navigate"]?["screen"]?.stringValue }
            #expect(!targets.isEmpty && targets.allSatisfy { app.screens[$0] != nil })
        }
    }

    @Test func createFromADeepLinkBuildsItsScreens() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection(), deepLink: "tabs://users/42/followers")
            let state = await session.state
            #expect(state.version == 1)
            #expect(state.focusedScreen == "followers")
            #expect(state.stackIDs(of: "tab:home")?.count == 3)
        }
    }

    @Test func resumeReadsTheStateThatAnotherClientMade() async throws {
        try await withLiveServer { server in
            let first = try await MinervaSession.create(on: server.connection())
            try await first.navigate(to: "profile", params: ["userId": "42"])
            let second = try await MinervaSession.resume(on: server.connection(), id: first.id, token: first.token)
            #expect(await second.state == first.state)
            #expect(await second.version == 2)
        }
    }

    @Test func refreshAndLinkReadTheCurrentState() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let other = try await MinervaSession.resume(on: server.connection(), id: session.id, token: session.token)
            try await other.navigate(to: "profile", params: ["userId": "7"])
            #expect(await session.version == 1)
            let state = try await session.refresh()
            #expect(state.version == 2 && state.focusedScreen == "profile")
            #expect(await session.version == 2)
            #expect(try await session.link() == "/users/7")
        }
    }

    @Test func deleteEndsTheSession() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            try await session.delete()
            let error = try await #require(throws: MinervaError.self) { try await session.refresh() }
            #expect(error.status == 401 && error.code == .unauthorized)
        }
    }
}
