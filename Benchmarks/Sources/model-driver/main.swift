// model-driver OP ITERATIONS
//
// Runs one model operation ITERATIONS times after its set-up, for valgrind's callgrind: the
// difference between the totals of ITERATIONS 0 and k, over k, is one operation (set-up and
// process start-up cancel out). run-model.sh does that. The operations are the Model suite's:
//   push-pop         tree.push(screen: "profile", params: ["userId": "1"]), tree.pop() (demo app)
//   present-dismiss  tree.present(screen: "photo", ["photoId": "1"]), tree.dismiss()
//   deeplink2        tree.deepLink("/users/42/followers")                (demo, same tree)
//   deeplink5        tree.deepLink(fiveStepLink)                         (5-step app, same tree)
//   deeplink5-fresh  the same on a copy of a fresh tree each time
//   deeplink6-same   tree.deepLink(sixStepLink()) again and again on a tree that shows it (6-step app)
//   deeplink6-last   links that differ in the last of their six steps, in turn, on the same tree
//   deeplink6-first  links that differ in the first of their six steps, in turn, on the same tree
//                    (the deeplink6-* scenarios print their events per link to stderr)
//   get-fresh        MinervaAPI.reply(to: GET /v1/sessions/{id})         (fresh demo session)
//   get-loaded       the same for a session with 4 pushes and a 20-item list
//   http-get         MinervaAPI.reply(to:) of GET /v1/sessions/{id} (fresh demo session)
//   http-push-pop    MinervaAPI.reply(to:) of POST …/push {"screen":"profile","params":{"userId":"1"}} and POST …/pop
//   http-push-pop-sqlite  http-push-pop with MODEL_STORE=sqlite
//   http-list-put    three PUTs …/nodes/n1/list of wrk/list_put/{a,b,c}.json (LIST_PUT_BODIES: their folder)
//   http-get-shaped  MinervaAPI.reply(to:) of GET /v1/sessions/{id} for a session with four pushed
//                    screens, a list and a presented sheet; with STATE_EXTRAS=1 also UI state on
//                    every node and two flows' results held (prints the document's bytes to stderr)
// The http-* scenarios use the store MODEL_STORE names: memory (the default), sqlite (a file in
// /tmp) or a postgres:// URL (hot-path.sh starts a private cluster). Analytics are recorded and
// stored in batches of the mutations of ANALYTICS_BATCH requests (default 64: what the writer's
// 10 ms gathers at 6,400 mutations/s), flushed by the driver: under valgrind, which runs the
// server about 50 times slower, the writer's 10 ms timer would gather a request or two, a batch
// no loaded server sees, and would make the figures depend on timing.
// Benchmarks/hot-path.sh runs them under callgrind on every store.
import Foundation
import InProcessAPI
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaServer
import MinervaPostgres
import MinervaSQLite
import MinervaSessions
import Logging

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let iterations = Int(arguments[2]) else {
    print("usage: model-driver push-pop|present-dismiss|deeplink2|deeplink5|deeplink5-fresh|deeplink6-same|deeplink6-last|deeplink6-first|get-fresh|get-loaded|http-get|http-get-shaped|http-push-pop|http-push-pop-sqlite|http-list-put ITERATIONS")
    exit(2)
}

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The API of the http-* scenarios: the store MODEL_STORE names, analytics stored when the driver flushes.
func makeHTTPAPI(store: String?) -> MinervaAPI {
    var configuration = ServerConfiguration(sessions: SessionConfiguration(rateLimit: 0))
    configuration.sessions.analyticsLinger = .seconds(3600)
    // MODEL_APP=experiment: every session in an experiment, never exposed; experiment-counted:
    // exposed by its first push, and counted by a funnel of the pushed screen.
    let app: AppDescription =
        switch ProcessInfo.processInfo.environment["MODEL_APP"] {
        case "experiment": .tabsInExperiment
        case "experiment-counted": .tabsCountedInExperiment
        default: .tabs
        }
    return makeAPI(app: app, configuration: configuration, storage: modelStore(store))
}

/// Requests between two analytics flushes in the http-* scenarios.
let analyticsBatch = Int(ProcessInfo.processInfo.environment["ANALYTICS_BATCH"] ?? "") ?? 64

/// The store MODEL_STORE names (`memory` by default), for the http-* scenarios.
func modelStore(_ name: String?) -> (any SessionStorage & AnalyticsStorage)? {
    switch name ?? "memory" {
    case "memory":
        return nil
    case "sqlite":
        let path = "/tmp/model-driver-\(getpid()).sqlite"
        atexit { unlink("/tmp/model-driver-\(getpid()).sqlite") }
        return try! SQLiteSessionStorage(path: path)
    case let url where url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"):
        var logger = Logger(label: "model-driver")
        logger.logLevel = .critical
        return try! PostgresSessionStorage(url: url, connections: 4, logger: logger)
    case let other:
        fatalError("MODEL_STORE must be memory, sqlite or a postgres:// URL, not \(other)")
    }
}

var checksum = 0
switch arguments[1] {
case "push-pop":
    var tree = CoordinatorTree(app: .tabs)
    for _ in 0..<iterations {
        try! tree.push(screen: "profile", params: ["userId": "1"])
        checksum &+= try! tree.pop().count
    }
    checksum &+= tree.nodes.count
case "present-dismiss":
    var tree = CoordinatorTree(app: .tabs)
    let params: [String: JSONValue] = ["photoId": "1"]
    for _ in 0..<iterations {
        try! tree.present(screen: "photo", params: params)
        checksum &+= try! tree.dismiss().count
    }
    checksum &+= tree.nodes.count
case "deeplink2":
    var tree = CoordinatorTree(app: .tabs)
    for _ in 0..<iterations { checksum &+= try! tree.deepLink("/users/42/followers").events.count }
    checksum &+= tree.nodes.count
case "deeplink5":
    var tree = CoordinatorTree(app: fiveStepApp())
    for _ in 0..<iterations { checksum &+= try! tree.deepLink(fiveStepLink).events.count }
    checksum &+= tree.nodes.count
case "deeplink5-fresh":
    let start = CoordinatorTree(app: fiveStepApp())
    for _ in 0..<iterations {
        var tree = start
        checksum &+= try! tree.deepLink(fiveStepLink).events.count
        consume(tree)
    }
case "deeplink6-same", "deeplink6-last", "deeplink6-first":
    var tree = CoordinatorTree(app: sixStepApp())
    try! tree.deepLink(sixStepLink())
    let links = switch arguments[1] {
    case "deeplink6-last": [sixStepLink(last: 7), sixStepLink()]
    case "deeplink6-first": [sixStepLink(first: 8), sixStepLink()]
    default: [sixStepLink()]
    }
    var events = 0
    for iteration in 0..<iterations {
        let before = tree
        let operation = try! tree.deepLink(links[iteration % links.count]).events
        events += tree.changeBlock(since: before, operationEvents: operation).count
    }
    checksum &+= events &+ tree.nodes.count
    if iterations > 0 { FileHandle.standardError.write(Data("events per link: \(Double(events) / Double(iterations))\n".utf8)) }

    let api = makeAPI()
    let session = try! api.createSession()
    if arguments[1] == "get-loaded" {
        for userId in 1...4 { try! api.pushProfile(session, userId: userId) }
        try! api.putList(session, node: "n1", items: 20)
    }
    let request = MinervaAPI.getStateRequest(session)
    for _ in 0..<iterations {
        guard case .response(let response) = api.reply(to: request) else { fatalError("not a response") }
        checksum &+= response.body.count
    }
case "http-get":
    let api = makeHTTPAPI(store: ProcessInfo.processInfo.environment["MODEL_STORE"])
    let session = try! api.createSession()
    let request = MinervaAPI.getStateRequest(session)
    for _ in 0..<iterations {
        guard let response = try? api.answer(request), response.status == 200 else { fatalError("not a 200") }
        checksum &+= response.body.count
    }
case "http-get-shaped":
    let api = makeHTTPAPI(store: ProcessInfo.processInfo.environment["MODEL_STORE"])
    let session = try! api.createSession()
    let base = "/v1/sessions/\(session.id)"
    for user in 1...4 { _ = try! api.send("POST", "\(base)/push", token: session.token, body: #"{"screen":"profile","params":{"userId":"\#(user)"}}"#) }
    try! api.putList(session, node: "n3", items: 5)
    if ProcessInfo.processInfo.environment["STATE_EXTRAS"] == "1" {
        for flow in ["photo", "onboarding"] {
            let params = flow == "photo" ? #"{"photoId":"1"}"# : "{}"
            _ = try! api.send("POST", "\(base)/present", token: session.token, body: #"{"screen":"\#(flow)","params":\#(params)}"#)
            _ = try! api.send("POST", "\(base)/dismiss", token: session.token, body: "{}")
        }
        for node in ["n1", "n2", "n3", "n4", "n5", "n6"] {
            _ = try! api.send("PUT", "\(base)/nodes/\(node)/ui", token: session.token, body: #"{"scrollAnchor":"row-12","selection":["row-12"]}"#)
        }
    }
    _ = try! api.send("POST", "\(base)/present", token: session.token, body: #"{"screen":"editProfile"}"#)
    let request = MinervaAPI.getStateRequest(session)
    for _ in 0..<iterations {
        guard let response = try? api.answer(request), response.status == 200 else { fatalError("not a 200") }
        checksum &+= response.body.count
    }
    let bytes = try! api.answer(request).body.count
    FileHandle.standardError.write(Data("state document bytes \(bytes)\n".utf8))
case "http-push-pop", "http-push-pop-sqlite":
    let store = arguments[1] == "http-push-pop-sqlite" ? "sqlite" : ProcessInfo.processInfo.environment["MODEL_STORE"]
    let api = makeHTTPAPI(store: store)
    let session = try! api.createSession()
    let auth = [(name: "authorization", value: "Bearer \(session.token)")]
    let push = HTTPRequest(method: "POST", path: "/v1/sessions/\(session.id)/push", headers: auth, body: Array(#"{"screen":"profile","params":{"userId":"1"}}"#.utf8))
    let pop = HTTPRequest(method: "POST", path: "/v1/sessions/\(session.id)/pop", headers: auth, body: Array("{}".utf8))
    for iteration in 0..<iterations {
        for request in [push, pop] {
            guard let response = try? api.answer(request), response.status == 200 else { fatalError("not a 200") }
            checksum &+= response.body.count
        }
        if (2 * iteration + 2) % analyticsBatch == 0 { api.core.analytics.flush() }
    }
    // The analytics writer's work for these mutations, whenever its timer would have fired.
    api.core.analytics.flush()
case "http-list-put":
    // The HTTP benchmark's three 20-item bodies (wrk/list_put/), PUT in turn: every PUT is a diff.
    let folder = ProcessInfo.processInfo.environment["LIST_PUT_BODIES"] ?? "Benchmarks/wrk/list_put"
    let bodies = ["a", "b", "c"].map { FileManager.default.contents(atPath: "\(folder)/\($0).json").map { [UInt8]($0) } ?? [] }
    guard !bodies.contains(where: \.isEmpty) else { fatalError("no list bodies in \(folder) (set LIST_PUT_BODIES)") }
    let api = makeHTTPAPI(store: ProcessInfo.processInfo.environment["MODEL_STORE"])
    let session = try! api.createSession()
    let auth = [(name: "authorization", value: "Bearer \(session.token)")]
    for iteration in 0..<(iterations * 3) {
        if iteration % analyticsBatch == 0 { api.core.analytics.flush() }
        let put = HTTPRequest(method: "PUT", path: "/v1/sessions/\(session.id)/nodes/n1/list", headers: auth, body: bodies[iteration % 3])
        guard let response = try? api.answer(put), response.status == 200 else { fatalError("not a 200") }
        checksum &+= response.body.count
    }
    api.core.analytics.flush()
default:
    print("unknown OP \(arguments[1])")
    exit(2)
}
print("op=\(arguments[1]) iterations=\(iterations) checksum=\(checksum)")
