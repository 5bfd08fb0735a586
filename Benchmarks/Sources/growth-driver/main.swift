// growth-driver: how the cost of a state document and of a list diff grows with the size of the
// tree and of the list (run-model.sh's growth phase, MODEL.md).
//
//   growth-driver times [STATE_SIZES] [LIST_SIZES]
//       Wall clock per operation for every size (defaults: nodes 3,10,100,1000; cells
//       10,100,1000,10000,100000), one line each:
//       growth what=state|diff|validate+diff|diff+json size=N p50_ns=… min_ns=… iterations=… bytes=…
//       Each figure is the median (and the minimum) of 15 batches, a batch being as many operations
//       as take at least 20 ms (at least one).
//   growth-driver state NODES K           K GETs of a session of NODES nodes, after its set-up
//   growth-driver diff|validate+diff|diff+json CELLS K
//                                         K diffs of CELLS cells, after building the inputs
//       For valgrind's callgrind: (total with K - total with 0) / K is one operation.
//
// state: MinervaAPI.reply(to: GET /v1/sessions/{id}) through the public API (InProcessAPI), on a
// demo session (3 nodes: the app coordinator and two tab roots) with NODES - 3 pushes of
// `profile` (`{"userId": "<i>"}`) on the home tab; memory store, rate limit 0, --max-nodes 2000.
// Routing, the token check and the headers are the same at every size; what grows is the
// StateDocument encoding (MinervaServer does not expose StateDocument itself).
// diff, validate+diff, diff+json: ListDiffInputs' single-section lists (N cells; the new version
// has 10% deleted, 10% inserted, 10% moved, 10% updated), as the ListDiff suite and diff-driver:
//   diff           ListDiff(from:to:fromVersion:toVersion:) on validated contents
//   validate+diff  ListContent(sections:) of the new version (id checks and id map), then the diff
//   diff+json      the diff, then diff.write(into:) with a JSONWriter, as PUT …/list answers
import InProcessAPI
import ListDiffInputs
import MicroHTTP
import MinervaJSON
import MinervaList
import MinervaServer
import MinervaSessions

#if canImport(Glibc)
import Glibc
#endif

var checksum = 0

/// A GET of the state document of a session with `nodes` nodes; answers the body length.
struct StateCase {
    let api: MinervaAPI
    let request: HTTPRequest

    init(nodes: Int) throws {
        precondition(nodes >= 3, "a demo session has at least 3 nodes")
        api = makeAPI(configuration: ServerConfiguration(sessions: SessionConfiguration(maxListItems: 1 << 20, maxListBytes: 1 << 40, maxNodes: 2000, maxSessionBytes: 1 << 40, rateLimit: 0)))
        let session = try api.createSession()
        for push in 0..<(nodes - 3) { try api.pushProfile(session, userId: push) }
        request = MinervaAPI.getStateRequest(session)
        // Check the size: the document lists every node once by id.
        let body = run()
        let ids = String(decoding: body, as: UTF8.self).components(separatedBy: #""screen":"#).count - 1
        precondition(ids == nodes, "expected \(nodes) nodes in the document, found \(ids)")
    }

    @inline(never)
    func run() -> [UInt8] {
        guard case .response(let response) = api.reply(to: request), response.status == 200 else {
            fatalError("GET state did not answer 200")
        }
        return response.body
    }
}

/// One list operation on the inputs of `cells` cells; answers a size (moves or JSON bytes).
struct ListCase {
    let inputs: DiffInputs
    let what: String

    init(cells: Int, what: String) {
        inputs = DiffInputs(count: cells, variant: .single)
        self.what = what
    }

    @inline(never)
    func run() -> Int {
        switch what {
        case "diff":
            return ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2).movedItems.count
        case "validate+diff":
            let new = try! ListContent(sections: inputs.new.sections)
            return ListDiff(from: inputs.old, to: new, fromVersion: 1, toVersion: 2).movedItems.count
        case "diff+json":
            let diff = ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2)
            var writer = JSONWriter(capacity: 128)
            diff.write(into: &writer)
            return writer.bytes.count
        default:
            fatalError("unknown list operation \(what)")
        }
    }
}

/// Median and minimum nanoseconds per call of `body`, over 15 batches of at least 20 ms.
func time(_ body: () -> Int) -> (p50: Double, min: Double, iterations: Int, sink: Int) {
    let clock = ContinuousClock()
    var sink = 0
    func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
    for _ in 0..<3 { sink &+= body() }  // warm-up
    var batch = 1
    while true {
        let elapsed = clock.measure { for _ in 0..<batch { sink &+= body() } }
        if nanoseconds(elapsed) >= 20e6 || batch >= 1 << 24 { break }
        batch *= 2
    }
    var samples: [Double] = []
    for _ in 0..<15 {
        let elapsed = clock.measure { for _ in 0..<batch { sink &+= body() } }
        samples.append(nanoseconds(elapsed) / Double(batch))
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0], batch, sink)
}

func sizes(_ text: String?, _ defaults: [Int]) -> [Int] {
    guard let text else { return defaults }
    return text.split(separator: ",").compactMap { Int($0) }
}

let arguments = CommandLine.arguments
let usage = "usage: growth-driver times [NODES,…] [CELLS,…] | state NODES K | diff|validate+diff|diff+json CELLS K"
guard arguments.count >= 2 else {
    print(usage)
    exit(2)
}
switch arguments[1] {
case "times":
    for nodes in sizes(arguments.count > 2 ? arguments[2] : nil, [3, 10, 100, 1000]) {
        let state = try StateCase(nodes: nodes)
        let bytes = state.run().count
        let t = time { state.run().count }
        checksum &+= t.sink
        print("growth what=state size=\(nodes) p50_ns=\(Int(t.p50)) min_ns=\(Int(t.min)) iterations=\(t.iterations) bytes=\(bytes)")
    }
    for cells in sizes(arguments.count > 3 ? arguments[3] : nil, [10, 100, 1000, 10000, 100000]) {
        for what in ["diff", "validate+diff", "diff+json"] {
            let list = ListCase(cells: cells, what: what)
            let bytes = ListCase(cells: cells, what: "diff+json").run()
            let t = time { list.run() }
            checksum &+= t.sink
            print("growth what=\(what) size=\(cells) p50_ns=\(Int(t.p50)) min_ns=\(Int(t.min)) iterations=\(t.iterations) bytes=\(bytes)")
        }
    }
case "state":
    guard arguments.count >= 4, let nodes = Int(arguments[2]), let k = Int(arguments[3]) else {
        print(usage)
        exit(2)
    }
    let state = try StateCase(nodes: nodes)
    for _ in 0..<k { checksum &+= state.run().count }
case "diff", "validate+diff", "diff+json":
    guard arguments.count >= 4, let cells = Int(arguments[2]), let k = Int(arguments[3]) else {
        print(usage)
        exit(2)
    }
    let list = ListCase(cells: cells, what: arguments[1])
    for _ in 0..<k { checksum &+= list.run() }
default:
    print(usage)
    exit(2)
}
print("checksum=\(checksum)")
