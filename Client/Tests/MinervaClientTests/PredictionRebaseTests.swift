import Foundation
import MinervaClient
import Testing

/// What a ``PredictingSession`` does when the session moved on under a change on its way: it
/// predicts the pending changes again on the server's state, renaming the ids they name, and
/// follows the session to a new app version.
@Suite(.timeLimit(.minutes(5))) struct PredictionRebaseTests {
    /// Device A pushes a profile (predicted `n3`) and, before the push arrives, pops exactly that
    /// node; device B's push lands first and takes `n3`. A's push is refused (`412`) and predicted
    /// again (now `n4`), and its pop is sent naming `n4`: B's screen stays, A's comes and goes.
    @Test func aChangeNamingAnIdAnEarlierChangeMadeFollowsItsNewId() async throws {
        try await withLiveServer { server in
            let gate = Gate()
            let created = try await MinervaSession.create(on: server.connection())
            let mine = try await MinervaSession.resume(on: server.connection(middlewares: [gate]), id: created.id, token: created.token)
            let predicting = try await PredictingSession.start(mine, device: "phone-a")
            gate.close()
            let pushed = try await predicting.apply(.push("profile", params: ["userId": "1"]))
            #expect(pushed.focus == "n3")
            try await predicting.apply(.pop(exactly: "n3"))
            while gate.held == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let other = try await created.push("followers", params: ["userId": "2"])
            #expect(other.focus == "n3")
            gate.open()
            await predicting.settled()

            var outcomes = predicting.outcomes.makeAsyncIterator()
            let push = try #require(await outcomes.next())
            let pop = try #require(await outcomes.next())
            guard case .confirmed = push, case .confirmed(let popped) = pop else {
                Issue.record("\(PredictionTests.describe(push)); \(PredictionTests.describe(pop))")
                return
            }
            #expect(popped.request == .pop(exactly: "n4"))
            let fresh = try await created.refresh()
            #expect(await predicting.state == fresh)
            #expect(fresh.focus == "n3" && fresh.node("n3")?.screen == "followers" && fresh.node("n4") == nil)
        }
    }

    /// The app is reloaded with a new screen while the device holds the session: its next change
    /// lands on the new app version (the session moves there first), the device takes the server's
    /// state, reads the new app description, and predicts a change to the new screen.
    @Test func aSessionMovedToANewAppVersionIsPredictedWithIt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("prediction-app-\(UUID().uuidString).json")
        try FileManager.default.copyItem(at: LiveServer.tabsApp, to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withLiveServer(["--app", file.path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            let predicting = try await PredictingSession.start(session, device: "phone")
            let before = try await session.app()
            var app = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
            var screens = app["screens"] as? [String: Any] ?? [:]
            screens["promo"] = ["presentation": "push", "title": "Promo"]
            app["screens"] = screens
            try JSONSerialization.data(withJSONObject: app).write(to: file)
            server.reloadApp()
            while try await session.app().version == before.version { try await Task.sleep(for: .milliseconds(50)) }

            try await predicting.apply(.push("profile", params: ["userId": "1"]))
            await predicting.settled()
            let shown = try await predicting.apply(.push("promo"))
            #expect(shown.focus != "" && shown.node(shown.focus)?.screen == "promo", "predicted with the new app")
            await predicting.settled()
            var outcomes = predicting.outcomes.makeAsyncIterator()
            let first = try #require(await outcomes.next())
            let second = try #require(await outcomes.next())
            switch first {
            case .confirmed, .corrected: break
            default: Issue.record("the first change: \(PredictionTests.describe(first))")
            }
            guard case .confirmed(let promo) = second else {
                Issue.record("the change to the new screen: \(PredictionTests.describe(second))")
                return
            }
            #expect(promo.wasPredicted, "the change to the new screen was predicted with the new app")
            #expect(await predicting.waitedChanges == 0)
            let fresh = try await session.refresh()
            #expect(fresh.appVersion != before.version)
            #expect(await predicting.state == fresh)
        }
    }
}
