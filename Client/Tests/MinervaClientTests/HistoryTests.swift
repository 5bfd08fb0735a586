import MinervaClient
import Testing

/// Time travel through the real server: reading earlier versions and restoring one.
@Suite struct HistoryTests {
    @Test func anEarlierVersionReadsAsItWasAndARestoreBringsItBackAsANewVersion() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            try await session.navigate(to: "profile", params: ["userId": "42"])
            let atTwo = await session.state
            try await session.navigate(to: "followers", params: ["userId": "42"])
            #expect(try await session.state(at: 2) == atTwo)
            #expect(try await session.state(at: 1).focusedScreen == "home")

            let (state, restored) = try await session.restore(version: 2)
            #expect(state.version == 4 && state.focusedScreen == "profile")
            #expect(restored.version == 2 && restored.listsDropped.isEmpty)
            #expect(await session.version == 4)
            // The restore is a version like any other: going back to before it undoes it.
            try await session.restore(version: 3)
            #expect(await session.state.focusedScreen == "followers")
        }
    }

    @Test func aVersionThatWasNeverMadeIsNotFound() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            await #expect {
                try await session.state(at: 9)
            } throws: { ($0 as? MinervaError)?.status == 404 }
        }
    }
}
