// memory-footprint: resident memory per session and per node of an in-process MinervaAPI
// (memory store, rate limit 0), built through MinervaAPI.reply(to:) as the HTTP server would.
//
//   memory-footprint sessions N [PUSHES] [ITEMS]
//       N sessions, each made by POST /v1/sessions, then PUSHES pushes (default 4) of `profile`,
//       then PUT of an ITEMS-cell list (default 20; 0: no list) on node n1. The demo app starts a session with
//       3 nodes (the app coordinator n0 and the two tab roots), so 4 pushes make 7 nodes and 2
//       pushes make 5.
//   memory-footprint nodes [PUSHES]
//       One session and PUSHES pushes (default 999) on its home tab, with --max-nodes 2000.
//   memory-footprint worst N [sqlite|memory]
//       N sessions at the default limits, in an SQLite store (a temporary file; the default) or in
//       memory, each grown to the most memory those limits let it take: a 20-cell list replaced
//       40 times (older versions: half the history budget with a store, 32 without), push/pop
//       rounds of `profile` with params of nearly --max-param-bytes (the newest events: the other
//       half, at most 64, with a store; 1,000 without), then small pushes until the session's byte
//       limit answers 409 (a node costs more memory per budget byte than anything else).
//   memory-footprint menu N [sqlite|memory]
//       N sessions at the default limits, in an SQLite store (a temporary file; the default) or in
//       memory, each with 2 pushes (5 nodes) and a menu on n1: 1,000 cells whose contents are 100
//       bytes of JSON each (the list the default --max-list-bytes is sized for), PUT, then one
//       dish sold out by a PATCH (so the PUT's version is kept as the previous one).
//   memory-footprint history N MUTATIONS [sqlite|memory]
//       N sessions at the default limits, each made by POST /v1/sessions and 2 pushes (5 nodes), then
//       MUTATIONS more, alternating a push and a pop of `profile` (so 5 nodes again after an even
//       number): the cost of a session's kept history (its events, and the checkpoints time travel
//       rebuilds earlier versions from).
//
// Resident memory is read from /proc/self/statm before and after (one process per N, so that
// runs don't share a heap); the heap in use from glibc's mallinfo2() is printed beside it. Each
// mode first builds and throws away one session, so that one-time allocations (the demo app,
// lazy globals, the metrics registry) are not counted.
import CMallocInfo
import InProcessAPI
import MinervaServer
import MicroHTTP
import MinervaSessions
import MinervaSQLite

#if canImport(Glibc)
import Glibc
#endif

func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return -1 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard fscanf_two(file, &size, &resident) else { return -1 }
    return resident * sysconf(Int32(_SC_PAGESIZE))
}

/// Reads the first two numbers of /proc/self/statm.
func fscanf_two(_ file: UnsafeMutablePointer<FILE>, _ first: inout Int, _ second: inout Int) -> Bool {
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(separator: " ")
    guard fields.count >= 2, let a = Int(fields[0]), let b = Int(fields[1]) else { return false }
    first = a
    second = b
    return true
}

/// An API at the default limits for `count` sessions, on a temporary SQLite store when `durable`
/// or on the memory store, and what removes the store's files.
func defaultsAPI(sessions count: Int, durable: Bool) throws -> (MinervaAPI, () -> Void) {
    let path = "/tmp/memory-footprint-\(getpid()).sqlite"
    let api = makeAPI(
        configuration: ServerConfiguration(sessions: SessionConfiguration(maxSessions: count + 10, rateLimit: 0)),
        storage: durable ? try SQLiteSessionStorage(path: path) : nil)
    return (api, { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } })
}

/// A menu of 1,000 dishes, each cell's content 100 bytes of JSON (`{"name":…,"price":…,"about":…}`).
func menuBody(session: Int) -> String {
    let cells = (0..<1000).map { dish -> String in
        let head = #"{"name":"Dish \#(dish)","price":\#(100 + (dish + session) % 900),"about":""#
        let about = String(repeating: "x", count: 100 - head.utf8.count - 2)
        return #"{"id":"d\#(dish)","kind":"dish","content":"# + head + about + #""}}"#
    }
    return #"{"sections":[{"id":"menu","items":["# + cells.joined(separator: ",") + "]}]}"
}

/// Bytes the program has allocated and not freed, per glibc (small blocks plus mmapped ones).
func heapInUse() -> Int {
    Int(cmallocinfo_heap_in_use())
}

func malloc_trim(_ pad: Int) {
    cmallocinfo_trim()
}

struct Reading {
    let resident: Int
    let heap: Int
    static func now() -> Reading { Reading(resident: residentBytes(), heap: heapInUse()) }
}

func format(_ bytes: Double) -> String {
    let kib = bytes / 1024
    return "\(Int(bytes.rounded())) B (\((kib * 100).rounded() / 100) KiB)"
}

/// Builds one throw-away thing (index -1: one-time allocations, caches), then `count` more,
/// reading memory before and after, and after `malloc_trim`.
func measure(_ count: Int, _ build: (Int) throws -> Void) throws -> (before: Reading, after: Reading, trimmed: Reading) {
    try build(-1)
    malloc_trim(0)
    let before = Reading.now()
    for index in 0..<count { try build(index) }
    let after = Reading.now()
    malloc_trim(0)
    return (before, after, Reading.now())
}

/// Prints the readings: resident memory before and after, and per session or node.
func report(_ before: Reading, _ after: Reading, _ trimmed: Reading, per unit: String, count: Double) {
    print("rss_before=\(before.resident) rss_after=\(after.resident) rss_after_trim=\(trimmed.resident)")
    print("rss_per_\(unit): \(format(Double(after.resident - before.resident) / count))")
    print("rss_per_\(unit)_after_malloc_trim: \(format(Double(trimmed.resident - before.resident) / count))")
    print("heap_per_\(unit): \(format(Double(after.heap - before.heap) / count))")
}

func fail(_ message: String) -> Never {
    var text = "memory-footprint: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: memory-footprint sessions N [PUSHES] [ITEMS] | nodes [PUSHES] | worst N | menu N | history N MUTATIONS") }

do {
    switch arguments[1] {
    case "sessions":
        guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else { fail("sessions needs N") }
        let pushes = arguments.count > 3 ? Int(arguments[3]) ?? 4 : 4
        let items = arguments.count > 4 ? Int(arguments[4]) ?? 20 : 20
        let api = makeAPI(configuration: ServerConfiguration(sessions: SessionConfiguration(maxSessions: count + 10, rateLimit: 0)))
        let listBodyText = listBody(items: items)
        func build(_ index: Int) throws {
            let session = try api.createSession()
            for push in 0..<pushes { try api.pushProfile(session, userId: index * 8 + push) }
            guard items > 0 else { return }  // no list at all, rather than an empty one
            try api.send("PUT", "/v1/sessions/\(session.id)/nodes/n1/list", token: session.token, body: listBodyText)
        }
        let (before, after, trimmed) = try measure(count, build)
        let n = Double(count)
        print("mode=sessions sessions=\(count) nodes_per_session=\(3 + pushes) list_items=\(items) live_sessions=\(api.core.sessionCount)")
        report(before, after, trimmed, per: "session", count: n)
    case "nodes":
        let pushes = arguments.count > 2 ? Int(arguments[2]) ?? 999 : 999
        let api = makeAPI(configuration: ServerConfiguration(sessions: SessionConfiguration(maxListItems: 1 << 20, maxListBytes: 1 << 40, maxNodes: 2000, maxSessionBytes: 1 << 40, rateLimit: 0)))
        let warm = try api.createSession()
        for push in 0..<10 { try api.pushProfile(warm, userId: push) }
        try api.send("DELETE", "/v1/sessions/\(warm.id)", token: warm.token, expect: 204)
        let session = try api.createSession()
        malloc_trim(0)
        let before = Reading.now()
        for push in 0..<pushes { try api.pushProfile(session, userId: push) }
        let after = Reading.now()
        malloc_trim(0)
        let trimmed = Reading.now()
        let n = Double(pushes)
        print("mode=nodes pushes=\(pushes) nodes=\(3 + pushes)")
        report(before, after, trimmed, per: "node", count: n)
    case "worst":
        guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else { fail("worst needs N") }
        let durable = arguments.count < 4 || arguments[3] == "sqlite"
        let (api, removeStore) = try defaultsAPI(sessions: count, durable: durable)
        defer { removeStore() }
        let bigParam = String(repeating: "7", count: SessionConfiguration().limits.maxParamBytes - 16)
        var nodes = 0
        func build(_ index: Int) throws {
            let session = try api.createSession()
            for round in 0..<40 {
                try api.send("PUT", "/v1/sessions/\(session.id)/nodes/n1/list", token: session.token, body: listBody(items: 20 + round % 2))
            }
            for _ in 0..<(durable ? 40 : 500) {
                try api.send(
                    "POST", "/v1/sessions/\(session.id)/push", token: session.token,
                    body: #"{"screen":"profile","params":{"userId":"\#(bigParam)"}}"#)
                try api.send("POST", "/v1/sessions/\(session.id)/pop", token: session.token, body: "{}")
            }
            var push = 0
            while true {
                let body = #"{"screen":"profile","params":{"userId":"\#(index)-\#(push)"}}"#
                let response = try api.answer(
                    HTTPRequest(
                        method: "POST", path: "/v1/sessions/\(session.id)/push", headers: [("authorization", "Bearer \(session.token)")],
                        body: Array(body.utf8)))
                guard response.status == 200 else { break }
                push += 1
            }
            nodes += 3 + push
        }
        let (before, after, trimmed) = try measure(count) { index in
            try build(index)
            if index < 0 { nodes = 0 }
        }
        let n = Double(count)
        print("mode=worst sessions=\(count) nodes_per_session=\(Double(nodes) / n) list_items=20 store=\(durable ? "sqlite" : "memory") limits=defaults")
        report(before, after, trimmed, per: "session", count: n)
        let sessions = SessionConfiguration.standard.maxSessions
        let projected = Double(after.resident - before.resident) / n * Double(sessions) / 1_073_741_824
        print("projected_rss_for_\(sessions)_sessions: \((projected * 100).rounded() / 100) GiB")
    case "menu":
        guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else { fail("menu needs N") }
        let durable = arguments.count < 4 || arguments[3] == "sqlite"
        let (api, removeStore) = try defaultsAPI(sessions: count, durable: durable)
        defer { removeStore() }
        let (before, after, trimmed) = try measure(count) { index in
            let session = try api.createSession()
            for push in 0..<2 { try api.pushProfile(session, userId: index * 8 + push) }
            try api.send("PUT", "/v1/sessions/\(session.id)/nodes/n1/list", token: session.token, body: menuBody(session: index))
            try api.send(
                "PATCH", "/v1/sessions/\(session.id)/nodes/n1/list", token: session.token,
                body: #"{"upsert":[{"cell":{"id":"d412","kind":"dish","content":{"soldOut":true}}}]}"#)
        }
        print("mode=menu sessions=\(count) nodes_per_session=5 list_items=1000 cell_content_bytes=100 store=\(durable ? "sqlite" : "memory") limits=defaults")
        report(before, after, trimmed, per: "session", count: Double(count))
    case "history":
        guard arguments.count >= 4, let count = Int(arguments[2]), count > 0, let mutations = Int(arguments[3]) else {
            fail("history needs N and MUTATIONS")
        }
        let durable = arguments.count > 4 && arguments[4] == "sqlite"
        let (api, removeStore) = try defaultsAPI(sessions: count, durable: durable)
        defer { removeStore() }
        let (before, after, trimmed) = try measure(count) { index in
            let session = try api.createSession()
            for push in 0..<2 { try api.pushProfile(session, userId: index * 8 + push) }
            for mutation in 0..<mutations {
                if mutation % 2 == 0 {
                    try api.pushProfile(session, userId: mutation)
                } else {
                    try api.send("POST", "/v1/sessions/\(session.id)/pop", token: session.token, body: "{}")
                }
            }
        }
        print("mode=history sessions=\(count) nodes_per_session=\(5 + mutations % 2) mutations=\(mutations) store=\(durable ? "sqlite" : "memory")")
        report(before, after, trimmed, per: "session", count: Double(count))
    default:
        fail("unknown mode \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
