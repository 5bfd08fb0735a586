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
//   get-fresh        MinervaAPI.reply(to: GET /v1/sessions/{id})         (fresh demo session)
//   get-loaded       the same for a session with 4 pushes and a 20-item list
//   http-push-pop    MinervaAPI.reply(to:) of POST …/push {"screen":"profile","params":{"userId":"1"}} and POST …/pop
//   http-push-pop-sqlite  the same with the SQLite store (a file in /tmp)
//   http-list-put    three PUTs …/nodes/n1/list of wrk/list_put/{a,b,c}.json (LIST_PUT_BODIES: their folder)
import Foundation
import InProcessAPI
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaServer
import MinervaSQLite

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let iterations = Int(arguments[2]) else {
    print("usage: model-driver push-pop|present-dismiss|deeplink2|deeplink5|deeplink5-fresh|get-fresh|get-loaded|http-push-pop|http-push-pop-sqlite|http-list-put ITERATIONS")
    exit(2)
}

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

var checksum = 0
switch arguments[1] {
case "push-pop":
    var tree = CoordinatorTree(app: .demo)
    for _ in 0..<iterations {
        try! tree.push(screen: "profile", params: ["userId": "1"])
        checksum &+= try! tree.pop().count
    }
    checksum &+= tree.nodes.count
case "present-dismiss":
    var tree = CoordinatorTree(app: .demo)
    let params: [String: JSONValue] = ["photoId": "1"]
    for _ in 0..<iterations {
        try! tree.present(screen: "photo", params: params)
        checksum &+= try! tree.dismiss().count
    }
    checksum &+= tree.nodes.count
case "deeplink2":
    var tree = CoordinatorTree(app: .demo)
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
case "get-fresh", "get-loaded":
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
case "http-push-pop", "http-push-pop-sqlite":
    var storage: SQLiteSessionStorage?
    if arguments[1] == "http-push-pop-sqlite" {
        let path = "/tmp/model-driver-\(getpid()).sqlite"
        storage = try! SQLiteSessionStorage(path: path)
        atexit { unlink("/tmp/model-driver-\(getpid()).sqlite") }
    }
    let api = makeAPI(storage: storage)
    let session = try! api.createSession()
    let auth = [(name: "authorization", value: "Bearer \(session.token)")]
    let push = HTTPRequest(method: "POST", path: "/v1/sessions/\(session.id)/push", headers: auth, body: Array(#"{"screen":"profile","params":{"userId":"1"}}"#.utf8))
    let pop = HTTPRequest(method: "POST", path: "/v1/sessions/\(session.id)/pop", headers: auth, body: Array("{}".utf8))
    for _ in 0..<iterations {
        for request in [push, pop] {
            guard let response = try? api.answer(request), response.status == 200 else { fatalError("not a 200") }
            checksum &+= response.body.count
        }
    }
case "http-list-put":
    // The HTTP benchmark's three 20-item bodies (wrk/list_put/), PUT in turn: every PUT is a diff.
    let folder = ProcessInfo.processInfo.environment["LIST_PUT_BODIES"] ?? "Benchmarks/wrk/list_put"
    let bodies = ["a", "b", "c"].map { FileManager.default.contents(atPath: "\(folder)/\($0).json").map { [UInt8]($0) } ?? [] }
    guard !bodies.contains(where: \.isEmpty) else { fatalError("no list bodies in \(folder) (set LIST_PUT_BODIES)") }
    let api = makeAPI()
    let session = try! api.createSession()
    let auth = [(name: "authorization", value: "Bearer \(session.token)")]
    for iteration in 0..<(iterations * 3) {
        let put = HTTPRequest(method: "PUT", path: "/v1/sessions/\(session.id)/nodes/n1/list", headers: auth, body: bodies[iteration % 3])
        guard case .response(let response) = api.reply(to: put), response.status == 200 else { fatalError("not a 200") }
        checksum &+= response.body.count
    }
default:
    print("unknown OP \(arguments[1])")
    exit(2)
}
print("op=\(arguments[1]) iterations=\(iterations) checksum=\(checksum)")
