import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MinervaClient
import Testing

/// A ``SessionMirror`` applies each block of events to the last state and equals a fresh `GET`
/// after every block: random operations of every kind, on apps of every shape, against the
/// real server, followed by a second client of the same session (as another device would).
@Suite struct MirrorTests {
    static let apps = LiveServer.tabsApp.deletingLastPathComponent()

    @Test(arguments: ["tabs.json", "mail.json", "fit.json", "news.json", "bank.json"])
    func aMirrorEqualsTheStateAfterEveryChange(app: String) async throws {
        try await withLiveServer(["--app", Self.apps.appendingPathComponent(app).path]) { server in
            var blocks = 0
            let follower = CountsOperations()
            for seed in UInt64(1)...6 {
                let session = try await MinervaSession.create(on: server.connection())
                let following = try await MinervaSession.resume(on: server.connection(middlewares: [follower]), id: session.id, token: session.token)
                var walk = RandomWalk(app: try await session.app(), generator: SeededGenerator(seed: seed))
                var mirror = following.mirror().makeAsyncIterator()
                #expect(try await mirror.next() == session.state)
                var steps: [String] = []
                for _ in 0..<150 {
                    let before = await session.version
                    steps.append(try await walk.step(on: session))
                    guard await session.version != before else { continue }
                    blocks += 1
                    let mirrored = try #require(try await mirror.next())
                    let fresh = try await session.refresh()
                    guard mirrored == fresh else {
                        Issue.record("\(app), seed \(seed): after \(steps.joined(separator: "; "))\nmirror: \(Self.json(mirrored))\nGET:    \(Self.json(fresh))")
                        return
                    }
                    #expect(await following.version == fresh.version)
                }
                try await session.delete()
            }
            // The mirror reads the whole state only for restores (about one change in twenty of
            // the walk) and its first `resume`; lists it reads one by one.
            let wholeReads = follower.count(of: "getSession") + follower.count(of: "getVersion")
            #expect(wholeReads <= 6 + blocks / 8, "\(wholeReads) whole reads for \(blocks) changes")
            #expect(follower.count(of: "getList") > 0)
        }
    }

    /// At compact width a news link builds a comments sheet from the article in `detail`, which
    /// compact hides, and dismisses it in the same change: no event shows `n4`, and the mirror takes
    /// the counters from the block's final event, so its state (and the next id) is the server's.
    @Test func aMirrorKeepsTheCountersOfIdsNoEventShows() async throws {
        try await withLiveServer(["--app", Self.apps.appendingPathComponent("news.json").path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            _ = try await session.setSizeClass(.compact)
            _ = try await mirror.next()
            let linked = try await session.deepLink("/sections/1/articles/2/comments")
            #expect(linked.nextNode == 5 && linked.nextNavigator == 2)
            #expect(try await mirror.next() == linked)
            let pushed = try await session.push("article", params: ["id": "3"], from: "n3")
            #expect(pushed.node("n5")?.screen == "article" && pushed.nextNode == 6)
            #expect(try await mirror.next() == pushed)
        }
    }

    /// Another device numbers its changes (`Minerva-Device-Change`): one that changes nothing is
    /// a block of one `unchanged` event; the mirror applies both and keeps the devices' marks.
    @Test func aMirrorFollowsChangesNumberedByAnotherDevice() async throws {
        try await withLiveServer(["--app", LiveServer.tabsApp.path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            for (seq, (operation, body)) in [("push", #"{"screen": "profile", "params": {"userId": "1"}}"#), ("select-tab", #"{"tab": "home"}"#)]
                .enumerated()
            {
                var request = URLRequest(url: server.url.appendingPathComponent("v1/sessions/\(session.id)/\(operation)"))
                request.httpMethod = "POST"
                request.httpBody = Data(body.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue("Bearer \(session.token)", forHTTPHeaderField: "Authorization")
                request.setValue("tablet/\(seq + 1)", forHTTPHeaderField: "Minerva-Device-Change")
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let mirrored = try #require(try await mirror.next())
                #expect(mirrored == (try await session.refresh()))
                #expect(mirrored.devices == ["tablet": DeviceMark(seq: seq + 1, version: seq + 2)])
            }
            // The last event, as the change log delivers it: `unchanged`, naming the device's change.
            let newest = try await session.refresh().lastEvent
            var changes = await session.changes(after: newest - 1, delivery: .longPoll).makeAsyncIterator()
            guard case .event(let event)? = try await changes.next(), case .unchanged(let unchanged) = event else {
                Issue.record("the newest event is not `unchanged`")
                return
            }
            #expect(unchanged.device == "tablet" && unchanged.deviceSeq == 2 && unchanged.isFinal)
        }
    }

    @Test(arguments: ["tabs.json", "fit.json"])
    func aMirrorThatFellBehindDeliversEveryVersionAsItWas(app: String) async throws {
        try await withLiveServer(["--app", Self.apps.appendingPathComponent(app).path]) { server in
            for seed in UInt64(11)...13 {
                let session = try await MinervaSession.create(on: server.connection())
                let following = try await MinervaSession.resume(on: server.connection(), id: session.id, token: session.token)
                var walk = RandomWalk(app: try await session.app(), generator: SeededGenerator(seed: seed))
                var mirror = following.mirror(delivery: .longPoll).makeAsyncIterator()
                _ = try await mirror.next()
                for _ in 0..<100 { _ = try await walk.step(on: session) }
                // Lists put long ago, nodes gone since, lists started again: each version as it was.
                let current = await session.version
                var mirrored = try #require(try await mirror.next())
                while true {
                    let then = try await session.state(at: mirrored.version)
                    guard mirrored == then else {
                        Issue.record("\(app), seed \(seed), version \(mirrored.version)\nmirror: \(Self.json(mirrored))\nGET:    \(Self.json(then))")
                        return
                    }
                    guard mirrored.version < current else { break }
                    mirrored = try #require(try await mirror.next())
                }
                #expect(await following.version == current)
            }
        }
    }

    @Test func aMirrorReadsTheStateAgainWhenTheSessionMovesToAnotherAppVersion() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mirror-app-\(UUID().uuidString).json")
        try FileManager.default.copyItem(at: LiveServer.tabsApp, to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withLiveServer(["--app", file.path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            try await session.push("profile", params: ["userId": "1"])
            let before = try await session.app()
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()

            let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"title\": \"Profile\"", with: "\"title\": \"Someone\"")
            try edited.write(to: file, atomically: true, encoding: .utf8)
            server.reloadApp()
            while try await session.app().version == before.version { try await Task.sleep(for: .milliseconds(50)) }
            // The session moves to the new version on its next use, a read too: one `appChanged`.
            let moved = try await session.refresh()
            #expect(try await mirror.next() == moved)
            #expect(moved.node("n3")?.title == "Someone" && moved.appVersion != before.version)
            let fresh = try await session.push("followers", params: ["userId": "1"])
            #expect(try await mirror.next() == fresh)
        }
    }

    private static func json(_ state: SessionState) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
