import Foundation
import MinervaClient
import OpenAPIRuntime

/// The real `minerva-server` binary, started for a test on a free loopback port and stopped
/// after it. `MINERVA_BIN` names the binary; the default is the repository's release build,
/// `.build/release/minerva-server` (`scripts/build.sh`).
final class LiveServer {
    /// The address it listens on, e.g. `http://127.0.0.1:41234`.
    let url: URL
    private let process: Process
    private let log: URL

    /// Starts a server and waits until it listens.
    /// - Parameters:
    ///   - arguments: flags after the defaults `--rate-limit 0` and, unless they name them,
    ///     `--store memory` and `--app`.
    ///   - app: the app file unless `arguments` name one: by default the live tests' `tabs.json`
    ///     (one tab bar, a guarded settings screen behind a login sheet: the demo app before root
    ///     flows); nil for the built-in demo app.
    ///   - port: the port; 0 picks a free one.
    init(_ arguments: [String] = [], app: URL? = LiveServer.tabsApp, port: Int = 0) async throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-client-test-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process = Process()
        process.executableURL = Self.binary
        let store = arguments.contains("--store") ? [] : ["--store", "memory"]
        let appFile = arguments.contains("--app") ? [] : app.map { ["--app", $0.path] } ?? []
        process.arguments = ["--port", String(port), "--rate-limit", "0"] + store + appFile + arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        url = try await Self.waitForListeningURL(in: log, of: process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// A connection to this server with the default transport and retry policy.
    /// - Parameter middlewares: middlewares to add, outermost first.
    func connection(middlewares: [any ClientMiddleware] = []) -> MinervaConnection {
        MinervaConnection(serverURL: url, middlewares: middlewares)
    }

    /// Makes the server read its app file again (SIGHUP), as an operator does after editing it.
    func reloadApp() {
        kill(process.processIdentifier, SIGHUP)
    }

    /// Stops the server with SIGTERM (which ends its event streams) and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Kills the server with SIGKILL, as a crash does (nothing is flushed or closed), and waits for it.
    func crash() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The server's output so far, for a failure's message.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The live tests' `tests/live/apps/tabs.json`.
    static let tabsApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tests/live/apps/tabs.json")

    private static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["MINERVA_BIN"] { return URL(fileURLWithPath: path) }
        // Tests/MinervaClientTests/Support/LiveServer.swift → the repository's root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/release/minerva-server")
    }

    private static func waitForListeningURL(in log: URL, of process: Process) async throws -> URL {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let match = text.firstMatch(of: /listening on (http:\/\/[^\s"]+)/), let url = URL(string: String(match.1)) {
                return url
            }
            guard process.isRunning else { throw StartFailure(output: text) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StartFailure(output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// The server did not say where it listens.
    struct StartFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "minerva-server did not start (is MINERVA_BIN or scripts/build.sh's binary there?):\n\(output)" }
    }
}

/// Runs `body` with a server started for it, and stops the server after it, however it ends.
/// - Parameters:
///   - arguments: flags for the server (see ``LiveServer/init(_:app:port:)``).
///   - app: the app file (see ``LiveServer/init(_:app:port:)``).
///   - isolation: the caller's actor, which `body` runs on.
///   - body: the test.
func withLiveServer<Result>(
    _ arguments: [String] = [], app: URL? = LiveServer.tabsApp, isolation: isolated (any Actor)? = #isolation,
    _ body: (LiveServer) async throws -> Result
) async throws -> Result {
    let server = try await LiveServer(arguments, app: app)
    defer { server.stop() }
    return try await body(server)
}

/// Runs `body` with a new session of the tabs app on a server started for it.
func withTabsSession<Result>(
    _ arguments: [String] = [], isolation: isolated (any Actor)? = #isolation, _ body: (MinervaSession) async throws -> Result
) async throws -> Result {
    try await withLiveServer(arguments) { server in
        try await body(try await MinervaSession.create(on: server.connection()))
    }
}
