public import ArgumentParser
public import Logging
import Metrics
import MicroHTTP
import MinervaCoordinator
import MinervaServer
import MinervaSessions
import MinervaSQLite
import MinervaPostgres
import Foundation
import Prometheus

/// `minerva-server`: serves the Minerva navigation API over HTTP.
@main
struct MinervaServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minerva-server",
        abstract: "Serve Minerva coordinator trees over HTTP: coordinators decide what to show, navigators decide how.",
        discussion: "Without --app the built-in demo app is served. Stop with SIGTERM or Ctrl-C: requests in flight finish first.")

    @Option(help: "Address to listen on (IPv4 or IPv6 literal, or localhost).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("App description file (JSON); default: the built-in demo app.", valueName: "file"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            "Where sessions are kept: sqlite:PATH (durable across restarts and crashes), memory, or postgres://user[:password]@host[:port]/database (shared by every instance that names it). Default: $MINERVA_STORE, else sqlite:minerva.sqlite.",
            valueName: "store"))
    var store: StoreOption?

    @Option(
        help: ArgumentHelp(
            "With a PostgreSQL store: threads (and database connections) for requests, writes and expiry; each instance opens one more to listen.",
            valueName: "count"))
    var storeThreads = ServerConfiguration.standard.storeThreads

    @Option(help: "Worker threads, each polling its own connections with epoll.")
    var threads = HTTPServerConfiguration.processorCount

    @Option(help: ArgumentHelp("Largest request body in bytes; larger ones answer 413.", valueName: "bytes"))
    var maxBody = HTTPServerConfiguration.standard.maxBodySize

    @Option(help: "Open connections at most.")
    var maxConnections = HTTPServerConfiguration.standard.connectionLimit

    @Option(
        name: .customLong("max-connections-per-ip"),
        help: "Open connections from one client address at most (0: no limit); behind a proxy, raise it to --max-connections.")
    var maxConnectionsPerIP = HTTPServerConfiguration.standard.connectionsPerAddress

    @Option(
        help: ArgumentHelp(
            "Seconds a connection must have been idle, or sending its request, before it may be shed while the server is full, to let in a client whose address (IPv6: /64) holds fewer connections.",
            valueName: "seconds"))
    var shedAfter = HTTPServerConfiguration.standard.shedAfter

    @Option(help: "Event streams one session may have open at once (0: no cap); more answer 429.")
    var maxStreamsPerSession = ServerConfiguration.standard.maxStreamsPerSession

    @Option(
        name: .customLong("max-streams-per-ip"),
        help: "Event streams one client address (IPv6: /64) may have open at once (0: no cap); more answer 429. Behind a proxy, raise it.")
    var maxStreamsPerIP = ServerConfiguration.standard.maxStreamsPerAddress

    @Option(help: ArgumentHelp("Seconds before an idle connection is closed.", valueName: "seconds"))
    var connectionTimeout = HTTPServerConfiguration.standard.connectionTimeout

    @Option(
        help: ArgumentHelp(
            "Seconds a request may take to arrive whole (line, headers and body) from its first byte; slower ones are cut off (0: no limit).",
            valueName: "seconds"))
    var requestTimeout = HTTPServerConfiguration.standard.requestTimeout

    @Option(help: "Sessions at most (in the store, when there is one); more answer 503.")
    var maxSessions = SessionConfiguration.standard.maxSessions

    @Option(help: "Events kept per session for GET …/events (at least 1000).")
    var eventHistory = SessionConfiguration.standard.eventHistory

    @Option(help: "List versions kept per node for GET …/list?since= (at least 32).")
    var listHistory = SessionConfiguration.standard.limits.listHistory

    @Option(help: "Cells per list at most; more answer 422.")
    var maxListItems = SessionConfiguration.standard.limits.maxListItems

    @Option(help: ArgumentHelp("Time a session may stay unused before it expires: seconds, or with s, m, h or d.", valueName: "duration"))
    var sessionTTL = Duration(seconds: SessionConfiguration.standard.sessionTTL)

    @Option(help: "Nodes per session at most; operations that would pass it answer 409.")
    var maxNodes = SessionConfiguration.standard.limits.maxNodes

    @Option(help: ArgumentHelp("Bytes of one node's params (as JSON) at most; more answer 422.", valueName: "bytes"))
    var maxParamBytes = SessionConfiguration.standard.limits.maxParamBytes

    @Option(
        name: .customLong("max-ui-bytes"),
        help: ArgumentHelp("Bytes of one node's UI state (PUT …/ui, as JSON) at most; more answer 422.", valueName: "bytes"))
    var maxUIBytes = SessionConfiguration.standard.limits.maxUIBytes

    @Option(help: ArgumentHelp("Bytes of one list at most (ids, kinds, contents, 64 per cell); more answer 422.", valueName: "bytes"))
    var maxListBytes = SessionConfiguration.standard.limits.maxListBytes

    @Option(
        help: ArgumentHelp(
            "Bytes of a session at most (512 per node and its params, its lists); growing past it answers 409. Its in-memory history keeps within as much again.",
            valueName: "bytes"))
    var maxSessionBytes = SessionConfiguration.standard.limits.maxSessionBytes

    @Option(
        help: ArgumentHelp(
            "With --store memory: bytes of records (events, older list versions, answers) one session's history keeps in the store; the oldest go first beyond it.",
            valueName: "bytes"))
    var memoryHistoryBytes = SessionConfiguration.standard.memoryHistoryBytes

    @Option(
        help: ArgumentHelp(
            "Bytes --max-sessions sessions may take at worst, each at its limits (twice --max-session-bytes, and with --store memory --memory-history-bytes); the server does not start when they could take more.",
            valueName: "bytes"))
    var memoryBudget = 8 << 30

    @Option(help: "Requests per second per session on average; 0 turns the limit off. More answer 429.")
    var rateLimit = SessionConfiguration.standard.rateLimit

    @Option(help: "Requests a session may make in a burst above the average.")
    var rateBurst = SessionConfiguration.standard.rateBurst

    @Option(help: ArgumentHelp("Bytes of path and query at most; longer answer 414.", valueName: "bytes"))
    var maxURLBytes = ServerConfiguration.standard.maxURLBytes

    @Option(help: ArgumentHelp("Bytes of header fields at most; more answer 431.", valueName: "bytes"))
    var maxHeaderBytes = ServerConfiguration.standard.maxHeaderBytes

    @Option(
        help: ArgumentHelp(
            "Seconds an event stream may stay idle before a comment line (': keep-alive') is sent on it, which finds clients that have gone and keeps proxies from closing the stream; keep it below the proxy's read timeout.",
            valueName: "seconds"))
    var streamHeartbeat = HTTPServerConfiguration.standard.streamHeartbeat

    @Option(help: "Log level: trace, debug, info (adds a line per request), notice, warning, error or critical.")
    var logLevel: Logger.Level = .notice

    @Option(help: ArgumentHelp("Serve the web client from this folder instead of its built-in copy (for working on it).", valueName: "folder"))
    var webRoot: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "A web origin (scheme://host[:port]) whose pages may call the API from a browser; repeat for more. Default: none.",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: "Log format: text (one line for people) or json (one object per line for collectors).")
    var logFormat: LogFormat = .text

    @Option(
        help: ArgumentHelp(
            "Bearer token of the admin paths (/v1/admin/analytics/…); default: $MINERVA_ADMIN_TOKEN. Without one they answer 404.",
            valueName: "token"))
    var adminToken: String?

    @Option(help: "Record flow analytics of every change: on or off (off only to measure what recording costs).")
    var analytics: AnalyticsSwitch = .on

    @Option(
        help: ArgumentHelp(
            "How long a session's compact path is kept after its last change, for funnels: seconds, or with s, m, h or d (at least the session TTL).",
            valueName: "duration"))
    var analyticsPathsFor: Duration = .init(seconds: 30 * 86_400)

    @Option(
        help: ArgumentHelp(
            "For tests: a file holding seconds to add to the server clock (read again every 50 ms), so that sessions expire and time passes on demand.",
            valueName: "file"))
    var clockOffsetFile: String?

    @Flag(help: "Print the built-in demo app's description and exit.")
    var printDemoApp = false

    @Option(
        help: ArgumentHelp(
            "Check an app description file and exit: 0 and its version when the server would serve it and every route can be shown in its flow, 1 and the reasons when not (for CI pipelines; the server serves a file whose routes fail, warning).",
            valueName: "file"))
    var checkApp: String?

    func validate() throws {
        let api = serverConfiguration(sessions: sessionConfiguration(now: SessionConfiguration.wallClock), cors: .off)
        if let problem = (httpConfiguration.problems + api.problems).first { throw ValidationError(problem) }
        if let problem = api.sessions.memoryProblem(budget: memoryBudget, inMemoryStore: try storeOption().isMemory) {
            throw ValidationError(problem)
        }
        _ = try corsPolicy()
    }

    /// The session core's limits the flags set, with `now` as its clock.
    private func sessionConfiguration(now: @escaping @Sendable () -> Double) -> SessionConfiguration {
        SessionConfiguration(
            maxSessions: maxSessions, eventHistory: eventHistory, listHistory: listHistory, maxListItems: maxListItems,
            maxListBytes: maxListBytes, maxNodes: maxNodes, maxParamBytes: maxParamBytes, maxUIBytes: maxUIBytes,
            maxSessionBytes: maxSessionBytes, memoryHistoryBytes: memoryHistoryBytes, sessionTTL: sessionTTL.seconds, rateLimit: rateLimit,
            rateBurst: rateBurst, now: now)
    }

    /// The API's limits the flags set.
    private func serverConfiguration(sessions: SessionConfiguration, cors: CORSPolicy) -> ServerConfiguration {
        ServerConfiguration(
            maxBodySize: maxBody, maxURLBytes: maxURLBytes, maxHeaderBytes: maxHeaderBytes, sessions: sessions, cors: cors,
            storeThreads: storeThreads, adminToken: adminTokenOption(), maxStreamsPerSession: maxStreamsPerSession,
            maxStreamsPerAddress: maxStreamsPerIP)
    }

    /// The HTTP edge's limits the flags set.
    private var httpConfiguration: HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: host, port: port, threads: threads, maxBodySize: maxBody, connectionLimit: maxConnections,
            connectionsPerAddress: maxConnectionsPerIP, shedAfter: shedAfter, connectionTimeout: connectionTimeout,
            requestTimeout: requestTimeout,
            // The server's own limits plus room for libmicrohttpd's records, so that those limits
            // answer in JSON rather than libmicrohttpd's HTML; no more, because libmicrohttpd
            // zeroes the whole pool between the requests of a connection.
            connectionMemoryLimit: maxURLBytes + maxHeaderBytes + (16 << 10), streamHeartbeat: streamHeartbeat)
    }

    /// This machine's memory in bytes, if the system tells.
    private static var physicalMemory: Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : nil
    }

    /// `--store`, else `MINERVA_STORE`, else the SQLite file in the working folder.
    /// - Throws: a ``ValidationError`` when `MINERVA_STORE` is not a store.
    private func storeOption() throws -> StoreOption {
        if let store { return store }
        guard let variable = ProcessInfo.processInfo.environment["MINERVA_STORE"], !variable.isEmpty else { return .sqlite("minerva.sqlite") }
        guard let store = StoreOption(argument: variable) else {
            throw ValidationError("MINERVA_STORE must be sqlite:PATH, memory or postgres://user[:password]@host[:port]/database")
        }
        return store
    }

    /// `--admin-token`, else `MINERVA_ADMIN_TOKEN`; `nil` (admin paths off) when neither is set or empty.
    private func adminTokenOption() -> String? {
        let token = adminToken ?? ProcessInfo.processInfo.environment["MINERVA_ADMIN_TOKEN"]
        return token?.isEmpty == false ? token : nil
    }

    /// The `--cors-origin` values as a policy.
    /// - Throws: a ``ValidationError`` naming the first value that is not an origin.
    private func corsPolicy() throws -> CORSPolicy {
        do {
            return try CORSPolicy(origins: corsOrigins)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        if printDemoApp {
            print(AppDescription.demoJSON)
            return
        }
        if let checkApp {
            try check(checkApp)
            return
        }
        // Before any other thread exists, so that every thread inherits the mask and
        // only sigwait below receives SIGTERM, SIGINT and SIGHUP.
        let signals = ProcessSignals.block()

        let level = logLevel
        let format = logFormat
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                return JSONLogHandler(label: label, logLevel: level)
            }
        }
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Time on screen runs from a glance to a long read, not a request's milliseconds.
        factory.durationHistogramBuckets[AnalyticsRecorder.timeOnScreenMetric] = [
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120), .seconds(300),
            .seconds(600), .seconds(1800), .seconds(3600),
        ]
        MetricsSystem.bootstrap(factory)
        let logger = Logger(label: "minerva-server")

        let appDescription = try loadApp()
        for problem in appDescription.unshowableRoutes() {
            logger.warning("the app description's \(problem)")
        }
        let store = try storeOption()
        let persistence: Persistence
        switch store {
        case .memory:
            persistence = .memory
        case .sqlite(let path):
            do {
                persistence = .local(try SQLiteSessionStorage(path: path))
            } catch {
                throw ValidationError("cannot open the session store '\(path)': \(error)")
            }
        case .postgres(let url):
            do {
                persistence = .shared(try PostgresSessionStorage(url: url, connections: storeThreads, logger: logger))
            } catch {
                throw ValidationError("cannot use the session store \(store): \(error)")
            }
        }
        let clockOffset = clockOffsetFile.map(ClockOffset.init)
        let clock = clockOffset?.now ?? SessionConfiguration.wallClock
        let sessions = sessionConfiguration(now: clock)
        let worst = sessions.worstBytes(inMemoryStore: store.isMemory)
        logger.notice(
            "sessions at worst: \(sessions.maxSessions) × \(sessions.worstSessionBytes(inMemoryStore: store.isMemory) >> 10) KiB = \(SessionConfiguration.gibibytes(worst)) of the \(SessionConfiguration.gibibytes(memoryBudget)) --memory-budget"
        )
        if let physical = Self.physicalMemory, worst > physical {
            logger.warning(
                "\(sessions.maxSessions) sessions may take up to \(SessionConfiguration.gibibytes(worst)), more than this machine's \(SessionConfiguration.gibibytes(physical)): lower --max-sessions or --memory-budget"
            )
        }
        let configuration = serverConfiguration(sessions: sessions, cors: try corsPolicy())
        let api: MinervaAPI
        do {
            api = try MinervaAPI(
                app: appDescription, configuration: configuration, logger: logger, persistence: persistence, webRoot: webRoot,
                metricsText: {
                    var text: [UInt8] = []
                    registry.emit(into: &text)
                    return text
                })
        } catch {
            throw ValidationError("cannot read the session store: \(error)")
        }
        api.core.analytics.isEnabled = analytics == .on
        api.core.analytics.pathLifetime = Int(max(analyticsPathsFor.seconds, sessionTTL.seconds))
        if !store.isMemory {
            logger.notice("\(api.core.sessionCount) sessions in \(store); each is read when first used")
        }
        let server = HTTPServer(
            configuration: httpConfiguration, responder: api, observer: ConnectionReport(logger: logger))
        do {
            try server.start()
        } catch {
            throw ValidationError(error.description)
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        logger.notice("listening on http://\(shownHost):\(server.port)", metadata: ["app": "\(appDescription.name)", "threads": "\(threads)"])

        let sweeper = SessionSweeper(api: api, interval: min(60, max(0.05, sessionTTL.seconds / 10)))
        sweeper.start()

        var signal = ""
        while signal.isEmpty {
            switch signals.wait() {
            case .stop(let name): signal = name
            case .reload: reloadApp(into: api, logger: logger)
            }
        }
        logger.notice("received signal \(signal); finishing requests in flight")
        sweeper.stop()
        server.shutdown(gracePeriod: 10)
        // The changes of the last moments are stored; their analytics are written before the exit.
        api.core.analytics.flush()
        withExtendedLifetime(clockOffset) {}
        logger.notice("stopped")
    }

    private func loadApp() throws -> AppDescription {
        guard let app else { return .demo }
        return try Self.readApp(app)
    }

    /// Reads and checks an app description file.
    /// - Throws: a ``ValidationError`` saying why it cannot be served.
    private static func readApp(_ path: String) throws -> AppDescription {
        guard let data = readFile(path) else {
            throw ValidationError("cannot read the app description file '\(path)'")
        }
        do {
            return try AppDescription.parse(data, source: path)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `--check-app`: prints the file's app and version, or throws why it cannot be served.
    private func check(_ path: String) throws {
        let app: AppDescription
        do {
            app = try Self.readApp(path)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        let unshowable = app.unshowableRoutes()
        guard unshowable.isEmpty else {
            FileHandle.standardError.write(Data(unshowable.map { "\(path): \($0)\n" }.joined().utf8))
            throw ExitCode.failure
        }
        let counted = (app.declaresFlows ? [counting(app.flows.count, "flow")] : []) + [
            counting(app.screens.count, "screen"), counting(app.routes.count, "route"),
        ]
        print("\(path): app '\(app.name)', \(counted.joined(separator: ", ")), version \(MinervaAPI.version(of: app))")
        for experiment in app.experiments {
            print("  experiment '\(experiment.key)' by \(experiment.unit.rawValue), coverage \(percent(experiment.coverage)):")
            for variant in experiment.variants {
                // A winner is run by everyone, counted no longer: its app assigns nothing.
                let won = experiment.winner == variant.name
                let choice = AppDescription.Choice(experiment: experiment.key, variant: variant.name, counted: !won)
                let version = (try? app.effective(choosing: [choice])).map(MinervaAPI.version(of:))
                let winner = won ? ", the winner" : ""
                print("    '\(variant.name)' \(percent(variant.weight))\(winner), version \(version ?? "?")")
            }
        }
    }

    /// "50%", "33.3%".
    private func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))%" : "\(tenths)%"
    }

    /// "1 route", "6 routes".
    private func counting(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// SIGHUP: reads `--app` again; a valid file serves new sessions at once, an invalid one
    /// keeps the app in use and logs why.
    private func reloadApp(into api: MinervaAPI, logger: Logger) {
        guard let app else {
            logger.notice("received SIGHUP; no --app file to read again (the built-in demo app is served)")
            return
        }
        do {
            let description = try Self.readApp(app)
            for problem in description.unshowableRoutes() {
                logger.warning("'\(app)': \(problem)")
            }
            let version = try api.replaceApp(description)
            logger.notice("received SIGHUP; serving the app description in '\(app)', version \(version): new sessions at once, others on their next use")
        } catch {
            logger.error("received SIGHUP; '\(app)' cannot be served, so the app in use stays: \(error)")
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `--analytics`.
enum AnalyticsSwitch: String, ExpressibleByArgument, CaseIterable {
    case on
    case off
}

/// `--log-format`.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
