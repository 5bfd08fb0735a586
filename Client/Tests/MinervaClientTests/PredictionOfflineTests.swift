import Foundation
import MinervaClient
import Testing

/// A ``PredictingSession`` while the server cannot be reached: changes queue and the app keeps
/// navigating on the predicted state; the queue survives launches as a saved value; on reconnect
/// each change applies exactly once, by its device number, even when the server forgot its
/// idempotency key; a session that expired meanwhile is reported with the changes it lost.
@Suite(.timeLimit(.minutes(5))) struct PredictionOfflineTests {
    /// One change is applied but its answer lost (the device's network goes down), then the server
    /// is killed; 100 changes are made
    /// offline, the queue is saved (as JSON) and restored at a second launch, still offline, which
    /// shows what the first showed and makes 100 more; the server's clock moves two days on (past its one-day key window) and it is
    /// restarted; a third launch restores the queue online. Every change is then applied once, in
    /// order: the log holds the numbers 1 to 201 once each, every outcome is confirmed or
    /// corrected, and the state shown is the server's.
    @Test(arguments: ["tabs.json", "mail.json"])
    func offlineChangesApplyOnceAcrossLaunchesAndARestart(app: String) async throws {
        try await withOfflineServer(app: app, extra: ["--session-ttl", "30d"]) { offline in
            let created = try await MinervaSession.create(on: offline.server.connection())
            var walk = RandomWalk(app: try await created.app(), generator: SeededGenerator(seed: 5))
            let network = FlakyNetwork(seed: 1)
            network.isOn = false
            network.disconnectsAfter = "flags"
            let first = try await PredictingSession.start(
                MinervaSession.resume(on: offline.server.connection(middlewares: [network]), id: created.id, token: created.token), device: "phone")
            try await first.apply(.flags(set: ["seen"]))
            while !network.isDisconnected { try await Task.sleep(for: .milliseconds(5)) }
            offline.server.crash()
            try await Self.makeChanges(100, with: &walk, on: first)
            let firstQueue = try Self.throughJSON(await first.savedQueue())
            let shown = await first.state
            await first.close()

            let second = try await PredictingSession.start(
                MinervaSession.resume(on: offline.server.connection(), id: created.id, token: created.token, knownState: firstQueue.confirmed),
                device: "phone", restoring: firstQueue)
            #expect(await second.state == shown, "the restored queue, predicted again, shows what the app showed")
            try await Self.makeChanges(100, with: &walk, on: second)
            let secondQueue = try Self.throughJSON(await second.savedQueue())
            await second.close()
            #expect(secondQueue.changes.map(\.seq) == Array(1...201))

            try offline.moveClock(days: 2)
            try await offline.restart()
            let third = try await PredictingSession.start(
                MinervaSession.resume(on: offline.server.connection(), id: created.id, token: created.token, knownState: secondQueue.confirmed),
                device: "phone", restoring: secondQueue)
            await third.settled()
            var outcomes = third.outcomes.makeAsyncIterator()
            var applied: [Int] = []
            for _ in 0..<201 {
                switch try #require(await outcomes.next()) {
                case .confirmed(let change), .corrected(let change, _, _): applied.append(change.seq)
                case let other: Issue.record("\(app): \(PredictionTests.describe(other))")
                }
            }
            #expect(applied == Array(1...201))
            #expect(try await SessionLog.numbers(of: "phone", in: created, on: offline.server.url) == Array(1...201))
            #expect(await third.state == (try await created.refresh()))
        }
    }

    /// Changes queued while the device has no network, in a session that expires (after 2 s
    /// unused) before it is back: each is reported as `sessionEnded` with its request, the streams
    /// end, and a later change throws `401`.
    @Test func aSessionThatExpiredOfflineReportsItsQueuedChanges() async throws {
        try await withLiveServer(["--session-ttl", "2"]) { server in
            let network = FlakyNetwork(seed: 1)
            network.isOn = false
            let created = try await MinervaSession.create(on: server.connection())
            let session = try await MinervaSession.resume(on: server.connection(middlewares: [network]), id: created.id, token: created.token)
            let predicting = try await PredictingSession.start(session, device: "phone")
            network.isDisconnected = true
            let requests: [ChangeRequest] = [try .push("profile", params: ["userId": "1"]), .selectTab("account"), .pop(navigator: "tab:home")]
            for request in requests { try await predicting.apply(request) }
            try await Task.sleep(for: .seconds(3))
            network.isDisconnected = false
            await predicting.settled()
            var ended: [ChangeRequest] = []
            var outcomes = predicting.outcomes.makeAsyncIterator()
            for _ in requests {
                let outcome = try #require(await outcomes.next())
                guard case .sessionEnded(let change, let reason) = outcome else {
                    Issue.record("a change was not reported as lost with its session: \(PredictionTests.describe(outcome))")
                    return
                }
                #expect(reason.status == 401)
                ended.append(change.request)
            }
            #expect(await outcomes.next() == nil, "the outcomes end with the session")
            #expect(ended.map(\.operation) == requests.map(\.operation))
            #expect(ended[0] == (try .push("profile", params: ["userId": "1"], from: "n1")), "sent naming the screen it was made on")
            await #expect(throws: MinervaError.self) { try await predicting.apply(.selectTab("home")) }
        }
    }

    /// Random changes the model takes, made on the predicted state.
    static func makeChanges(_ count: Int, with walk: inout RandomWalk, on predicting: PredictingSession) async throws {
        var made = 0
        while made < count {
            guard case .change(let request, _) = try walk.operation(on: await predicting.state) else { continue }
            do {
                try await predicting.apply(request)
                made += 1
            } catch is MinervaError {}
        }
    }

    /// A saved queue as an app keeps it: written as JSON and read back.
    static func throughJSON(_ queue: SavedQueue) throws -> SavedQueue {
        try JSONDecoder().decode(SavedQueue.self, from: JSONEncoder().encode(queue))
    }
}

/// A server on SQLite whose clock a test moves, and which it kills and starts again on the same
/// port and store.
final class OfflineServer: @unchecked Sendable {
    private(set) var server: LiveServer
    private let arguments: [String]
    private let folder: URL

    init(app: String, extra: [String]) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-offline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        arguments =
            [
                "--app", LiveServer.tabsApp.deletingLastPathComponent().appendingPathComponent(app).path,
                "--store", "sqlite:\(folder.appendingPathComponent("sessions.sqlite").path)",
                "--clock-offset-file", folder.appendingPathComponent("clock-offset").path, "--event-history", "100000",
            ] + extra
        server = try await LiveServer(arguments)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Moves the server's clock `days` on.
    func moveClock(days: Int) throws {
        try Data("\(days * 86_400)".utf8).write(to: folder.appendingPathComponent("clock-offset"))
    }

    /// Starts the server again on its port and store (after ``LiveServer/crash()``).
    func restart() async throws {
        server.stop()
        server = try await LiveServer(arguments, port: server.url.port!)
    }
}

/// Runs `body` with an ``OfflineServer``.
func withOfflineServer(app: String, extra: [String], isolation: isolated (any Actor)? = #isolation, _ body: (OfflineServer) async throws -> Void) async throws {
    let offline = try await OfflineServer(app: app, extra: extra)
    try await body(offline)
}
