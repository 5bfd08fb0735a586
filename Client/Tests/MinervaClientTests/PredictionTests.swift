import Foundation
import MinervaClient
import Testing

/// A ``PredictingSession`` predicts each change with the server's own model: on one device alone,
/// every prediction equals the server's answer, and every change the model refuses the server
/// refuses with the same status.
@Suite(.timeLimit(.minutes(5))) struct PredictionTests {
    static let apps = LiveServer.tabsApp.deletingLastPathComponent()

    /// Random changes of every kind, in bursts of up to 8 sent one after another while the next
    /// are predicted: each outcome is `confirmed`, the state shown equals a fresh `GET` once the
    /// queue is sent, and each change the model refused (checked when nothing was pending) is
    /// refused by the server too. Over the three apps, at least 10,000 changes are confirmed.
    @Test(arguments: ["bank.json", "mail.json", "tabs.json"])
    func everyPredictionEqualsTheServersAnswer(app: String) async throws {
        try await withLiveServer(["--app", Self.apps.appendingPathComponent(app).path]) { server in
            var confirmed = 0
            var refusals = 0
            for seed in UInt64(1)...16 {
                let session = try await MinervaSession.create(on: server.connection())
                let predicting = try await PredictingSession.start(session, device: "phone-\(seed)")
                var outcomes = predicting.outcomes.makeAsyncIterator()
                var walk = RandomWalk(app: try await session.app(), generator: SeededGenerator(seed: seed))
                var steps: [String] = []
                while steps.count < 300 {
                    var applied = 0
                    for _ in 0..<Int.random(in: 1...8, using: &walk.generator) {
                        guard case .change(let request, let description) = try walk.operation(on: await predicting.state) else { continue }
                        steps.append(description)
                        do {
                            try await predicting.apply(request)
                            applied += 1
                        } catch let refusal as MinervaError {
                            refusals += 1
                            guard await predicting.pendingChanges == 0 else { continue }
                            // Nothing pending: the server holds the state the model refused it on.
                            do {
                                try await session.apply(request)
                                Issue.record("\(app), seed \(seed): the model refused \(request) (\(refusal)) but the server applied it, after \(steps.suffix(8))")
                                return
                            } catch let error as MinervaError {
                                #expect(error.status == refusal.status, "\(app), seed \(seed): \(request): model \(refusal), server \(error)")
                            }
                        }
                    }
                    await predicting.settled()
                    for _ in 0..<applied {
                        let outcome = try #require(await outcomes.next())
                        guard case .confirmed = outcome else {
                            Issue.record("\(app), seed \(seed): \(Self.describe(outcome)) after \(steps.suffix(8))")
                            return
                        }
                        confirmed += 1
                    }
                    let fresh = try await session.refresh()
                    guard await predicting.state == fresh else {
                        Issue.record("\(app), seed \(seed): the state shown is not the server's after \(steps.suffix(8))")
                        return
                    }
                }
                try await session.delete()
            }
            print("\(app): \(confirmed) changes predicted and confirmed, \(refusals) refused by the model")
            #expect(confirmed >= 3_400)
        }
    }

    /// The events a predicted state comes with are the block the server's change log holds for
    /// that change, its times aside: random changes on each app, one at a time.
    @Test(arguments: ["bank.json", "mail.json", "tabs.json"])
    func thePredictedEventsAreTheServersBlock(app: String) async throws {
        try await withLiveServer(["--app", Self.apps.appendingPathComponent(app).path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            let predicting = try await PredictingSession.start(session, device: "phone")
            var shown = predicting.states.makeAsyncIterator()
            var walk = RandomWalk(app: try await session.app(), generator: SeededGenerator(seed: 3))
            var compared = 0
            while compared < 60 {
                guard case .change(let request, let description) = try walk.operation(on: await predicting.state) else { continue }
                let before = await predicting.state
                do {
                    try await predicting.apply(request)
                } catch is MinervaError {
                    continue
                }
                let predicted = try #require(await shown.next())
                await predicting.settled()
                let logged = try await SessionLog.events(after: before.lastEvent, in: session, on: server.url)
                let (mine, theirs) = (try Self.withoutTimes(predicted.events), try Self.withoutTimes(logged))
                #expect(mine == theirs, "\(app): \(description)\npredicted: \(mine)\nserver:    \(theirs)")
                compared += 1
            }
        }
    }

    /// Events as JSON objects without their `at`.
    static func withoutTimes(_ events: [Event]) throws -> [NSDictionary] {
        try events.map { event in
            var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(event)) as? [String: Any] ?? [:]
            object["at"] = nil
            return object as NSDictionary
        }
    }

    /// An outcome that is not `confirmed`, for a failure's message: the change, and where the
    /// prediction and the server differ, or why it was dropped.
    static func describe(_ outcome: ChangeOutcome) -> String {
        switch outcome {
        case .confirmed(let change): "\(change.request) confirmed"
        case .corrected(let change, let server, let differences):
            "\(change.request) (#\(change.seq)) corrected at \(differences): server \(json(server))"
        case .dropped(let change, let reason): "\(change.request) (#\(change.seq)) dropped: \(reason)"
        case .sessionEnded(let change, let reason): "\(change.request) (#\(change.seq)): the session ended: \(reason)"
        }
    }

    private static func json(_ state: SessionState) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "-"
    }
}
