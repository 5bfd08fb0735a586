import Foundation
import MinervaClient
import Testing

/// A ``PredictingSession`` under what a phone meets: another device changing the same session,
/// requests and answers lost, a server killed and restarted, a server on another model, and a
/// screen that waits for the server.
@Suite(.timeLimit(.minutes(5))) struct PredictionFaultTests {
    static let apps = LiveServer.tabsApp.deletingLastPathComponent()

    /// Device A predicts random changes while device B changes the same session between them, the
    /// network loses a tenth of A's requests (before or after the server applied them) and delays
    /// others, and the server (SQLite) is killed with SIGKILL and restarted twice. In the end A
    /// shows exactly a fresh `GET`, every change of A has one outcome, the ones applied (confirmed
    /// or corrected) carry the numbers 1, 2, 3, … in order, and the server's log holds each of
    /// them once.
    @Test(arguments: ["tabs.json", "mail.json", "bank.json"])
    func everyChangeIsAccountedForUnderASecondDeviceAndFaults(app: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-prediction-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "--app", Self.apps.appendingPathComponent(app).path, "--store", "sqlite:\(folder.appendingPathComponent("sessions.sqlite").path)",
            "--event-history", "100000",
        ]
        var server = try await LiveServer(arguments)
        defer { server.stop() }
        let flaky = FlakyNetwork(seed: 11)
        let created = try await MinervaSession.create(on: server.connection())
        let other = try await MinervaSession.resume(on: server.connection(), id: created.id, token: created.token)
        let mine = try await MinervaSession.resume(on: server.connection(middlewares: [flaky]), id: created.id, token: created.token)
        let predicting = try await PredictingSession.start(mine, device: "phone-a")
        var outcomes = predicting.outcomes.makeAsyncIterator()
        var walk = RandomWalk(app: try await created.app(), generator: SeededGenerator(seed: 1))
        var otherWalk = RandomWalk(app: walk.app, generator: SeededGenerator(seed: 2))
        var applied = 0
        for round in 1...400 {
            if case .change(let request, _) = try walk.operation(on: await predicting.state) {
                do {
                    try await predicting.apply(request)
                    applied += 1
                } catch is MinervaError {}  // the model refused it on the state shown: nothing sent
            }
            if round.isMultiple(of: 4) {
                _ = try? await other.refresh()
                _ = try await otherWalk.step(on: other)
            }
            if round.isMultiple(of: 150) {
                server.crash()
                server = try await LiveServer(arguments, port: server.url.port!)
            }
            if round.isMultiple(of: 3) { try await Task.sleep(for: .milliseconds(round % 7)) }
        }
        flaky.isOn = false
        await predicting.settled()
        var counts: [String: Int] = [:]
        var appliedNumbers: [Int] = []
        for _ in 0..<applied {
            let outcome = try #require(await outcomes.next())
            switch outcome {
            case .confirmed(let change):
                counts["confirmed", default: 0] += 1
                appliedNumbers.append(change.seq)
            case .corrected(let change, _, _):
                counts["corrected", default: 0] += 1
                appliedNumbers.append(change.seq)
            case .dropped(_, let reason): counts["dropped \(reason.status) \(reason.code?.rawValue ?? "")", default: 0] += 1
            case .sessionEnded: counts["session ended", default: 0] += 1
            }
        }
        print("\(app): \(applied) changes: \(counts); \(flaky.lostRequests) requests and \(flaky.lostAnswers) answers lost")
        #expect(await predicting.pendingChanges == 0)
        #expect(await predicting.state == (try await other.refresh()))
        #expect(appliedNumbers == appliedNumbers.indices.map { $0 + 1 })
        #expect(try await SessionLog.numbers(of: "phone-a", in: created, on: server.url) == appliedNumbers)
        #expect(counts["confirmed", default: 0] + counts["corrected", default: 0] > applied / 2)
        #expect(counts["session ended"] == nil)
    }

    /// A client whose model version is not the server's does not predict: each change waits for
    /// the server's answer, and the session still works.
    @Test func aClientOnAnotherModelWaitsForTheServer() async throws {
        try await withLiveServer { server in
            let created = try await MinervaSession.create(on: server.connection())
            let session = try await MinervaSession.resume(on: server.connection(middlewares: [RunsAnotherModel()]), id: created.id, token: created.token)
            let predicting = try await PredictingSession.start(session, device: "old-phone")
            let pushed = try await predicting.apply(.push("profile", params: ["userId": "1"]))
            #expect(pushed == (try await created.refresh()))
            try await predicting.apply(.pop())
            #expect(await predicting.waitedChanges == 2)
            #expect(await predicting.state == (try await created.refresh()))
            var outcomes = predicting.outcomes.makeAsyncIterator()
            for _ in 0..<2 {
                guard case .confirmed(let change) = try #require(await outcomes.next()) else { Issue.record("not confirmed"); return }
                #expect(!change.wasPredicted)
            }
        }
    }

    /// A change the app asks to wait for (a payment's confirm step) is not predicted: its call
    /// returns the server's state, after the predicted change before it was answered.
    @Test func aChangeThatWaitsForTheServerIsNotPredicted() async throws {
        try await withTabsSession { session in
            let predicting = try await PredictingSession.start(session, device: "phone")
            try await predicting.apply(.push("profile", params: ["userId": "1"]))
            let before = await predicting.state
            async let confirmed = predicting.apply(.push("followers", params: ["userId": "1"]), waitingForServer: true)
            let server = try await confirmed
            #expect(server.version == before.version + 1)
            #expect(await predicting.state == server)
            #expect(await predicting.waitedChanges == 1)
        }
    }
}
