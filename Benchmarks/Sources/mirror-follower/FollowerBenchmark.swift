import ClientTraffic
import Foundation
import MinervaClient

/// Two followers of one scripted session, and what each read per change.
enum FollowerBenchmark {
    /// The followers saw different states after the same change.
    struct Disagreement: Error {
        let version: Int
    }

    /// Runs the scripted session with both followers and prints the table.
    /// - Parameters:
    ///   - server: the server's URL.
    ///   - changes: how many changes the session makes.
    static func run(server: URL, changes: Int) async throws {
        let session = try await MinervaSession.create(on: MinervaConnection(serverURL: server))
        let byMirror = CountsTraffic()
        let byRereading = CountsTraffic()
        let mirrorClient = try await MinervaSession.resume(
            on: MinervaConnection(serverURL: server, middlewares: [byMirror]), id: session.id, token: session.token)
        let rereadingClient = try await MinervaSession.resume(
            on: MinervaConnection(serverURL: server, middlewares: [byRereading]), id: session.id, token: session.token)
        let start = (mirror: byMirror.totals, rereading: byRereading.totals)

        var mirror = mirrorClient.mirror().makeAsyncIterator()
        var rereading = rereadingClient.states().makeAsyncIterator()
        _ = try await mirror.next()

        var script = ScriptedSession(session: session)
        var documentBytes = 0
        for _ in 0..<changes {
            let version = try await script.change()
            var mirrored = try await mirror.next()
            while let state = mirrored, state.version < version { mirrored = try await mirror.next() }
            var reread = try await rereading.next()
            while let state = reread, state.version < version { reread = try await rereading.next() }
            guard mirrored == reread else {
                print("the followers disagree at version \(version)")
                throw Disagreement(version: version)
            }
            documentBytes = try JSONEncoder().encode(reread).count
        }

        let mirrorCost = (requests: byMirror.totals.requests - start.mirror.requests, bytes: byMirror.totals.bytes - start.mirror.bytes)
        let rereadCost = (requests: byRereading.totals.requests - start.rereading.requests, bytes: byRereading.totals.bytes - start.rereading.bytes)
        func perChange(_ value: Int) -> String { String(format: "%.2f", Double(value) / Double(changes)) }
        print("| follower | requests per change | answer bytes per change |")
        print("|---|---:|---:|")
        print("| mirror (event stream, lists read on `listChanged`) | \(perChange(mirrorCost.requests)) | \(perChange(mirrorCost.bytes)) |")
        print("| re-read the state after every change (long poll) | \(perChange(rereadCost.requests)) | \(perChange(rereadCost.bytes)) |")
        print("")
        print("\(changes) changes; the state document at the end: about \(documentBytes) bytes; mirror/re-read bytes: "
            + String(format: "%.3f", Double(mirrorCost.bytes) / Double(rereadCost.bytes)))
        try await session.delete()
    }
}
