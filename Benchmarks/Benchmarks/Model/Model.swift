// Navigation-model benchmarks: CoordinatorTree operations on the demo app, a 5-step deep link on
// an app made for it, and GET of the state document through an in-process MinervaAPI.
//
// Each benchmark iteration runs its operation 1,000 times (scalingFactor .kilo), so the figures
// package-benchmark prints are per operation (pair). Targets from the issue: push+pop under 2 µs,
// a deep link under 20 µs, few allocations.
//   swift package --package-path Benchmarks benchmark --target Model
import Benchmark
import InProcessAPI
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaServer

let benchmarks: @Sendable () -> Void = {
    let perOperation = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 2000)

    Benchmark("push+pop (demo, profile)", configuration: perOperation) { benchmark in
        var tree = CoordinatorTree(app: .tabs)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try! tree.push(screen: "profile", params: ["userId": "1"])
            try! tree.pop()
        }
        benchmark.stopMeasurement()
        blackHole(tree)
    }

    Benchmark("present+dismiss (demo, photo)", configuration: perOperation) { benchmark in
        var tree = CoordinatorTree(app: .tabs)
        let params: [String: JSONValue] = ["photoId": "1"]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try! tree.present(screen: "photo", params: params)
            try! tree.dismiss()
        }
        benchmark.stopMeasurement()
        blackHole(tree)
    }

    // A deep link resets the visible stack and builds the route's chain; repeated on the same
    // tree, each one also removes what the previous one built, as on a live session.
    Benchmark("deep link 2 steps (demo, /users/42/followers)", configuration: perOperation) { benchmark in
        var tree = CoordinatorTree(app: .tabs)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try! tree.deepLink("/users/42/followers")
        }
        benchmark.stopMeasurement()
        blackHole(tree)
    }

    let deepApp = fiveStepApp()
    Benchmark("deep link 5 steps (/shops/7/products/42/review/photos/3)", configuration: perOperation) { benchmark in
        var tree = CoordinatorTree(app: deepApp)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try! tree.deepLink(fiveStepLink)
        }
        benchmark.stopMeasurement()
        precondition(tree.nodes.count == 7, "the 5-step link should leave 7 nodes, not \(tree.nodes.count)")
        blackHole(tree)
    }

    Benchmark("deep link 5 steps, fresh tree each time", configuration: perOperation) { benchmark in
        let start = CoordinatorTree(app: deepApp)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var tree = start
            try! tree.deepLink(fiveStepLink)
            blackHole(tree)
        }
        benchmark.stopMeasurement()
    }

    // GET /v1/sessions/{id} through MinervaAPI.reply(to:): routing, token check (SHA-256),
    // session lock, StateDocument encoding, response headers, request metrics (no backend) and
    // the request log (filtered out at .critical).
    let api = makeAPI()
    let fresh = try! api.createSession()
    let loaded = try! api.createSession()
    for userId in 1...4 { try! api.pushProfile(loaded, userId: userId) }
    try! api.putList(loaded, node: "n1", items: 20)
    for (name, session) in [("fresh session, 3 nodes", fresh), ("7 nodes + 20-item list", loaded)] {
        let request = MinervaAPI.getStateRequest(session)
        Benchmark("GET state in process (\(name))", configuration: perOperation) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(api.reply(to: request))
            }
        }
    }
}
