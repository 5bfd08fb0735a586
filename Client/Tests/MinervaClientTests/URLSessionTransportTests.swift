import MinervaClient
import Testing

/// The URLSession transport, which apps on Apple platforms use, against the real server. Off
/// Apple platforms URLSession buffers every answer, so event streams are not tried here.
@Suite struct URLSessionTransportTests {
    @Test func aSessionChangesAndFailsThroughURLSession() async throws {
        try await withLiveServer { server in
            let connection = MinervaConnection(serverURL: server.url, transport: MinervaConnection.urlSession())
            let session = try await MinervaSession.create(on: connection)
            let state = try await session.navigate(to: "profile", params: ["userId": "42"])
            #expect(state.version == 2 && state.focusedScreen == "profile")
            let error = try await #require(throws: MinervaError.self) { try await session.pop(navigator: "tab:account") }
            #expect(error.status == 409 && error.code == .conflict)
            let page = try await Collected(await session.changes(after: 0, delivery: .longPoll)).waitFor(count: 1)
            #expect(page.count == 1)
        }
    }
}
