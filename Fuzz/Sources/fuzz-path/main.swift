// Fuzzing of the request path: percent-decoding (MicroHTTP) and routing (MinervaServer's
// Route). Properties checked on every input, beyond "never crashes":
// - a decoded path holds no NUL, and encoding its bytes again decodes to the same bytes;
// - the router accepts any string; a route it finds names non-empty ids without '/', and the
//   route's own path finds the same route again (routing is exact on the decoded bytes).
import FuzzDriver
import MicroHTTP
@testable import MinervaServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    check(Route(path: String(decoding: bytes, as: UTF8.self)))
    guard let decoded = try? PercentDecoding.decode(bytes) else { return 0 }
    guard !decoded.utf8.contains(0) else { finding("a decoded path holds a NUL byte") }
    guard let again = try? PercentDecoding.decode(percentEncoded(decoded)), again.utf8.elementsEqual(decoded.utf8) else {
        finding("decoding does not round-trip \(decoded.debugDescription)")
    }
    check(Route(path: decoded))
    return 0
}

/// Checks a route the router found: its ids, and that its own path finds it again.
func check(_ route: Route?) {
    guard let route else { return }
    for id in ids(of: route) where id.isEmpty || id.utf8.contains(UInt8(ascii: "/")) {
        finding("route \(route) has the id \(id.debugDescription)")
    }
    guard Route(path: path(of: route)) == route else { finding("route \(route) is not found again from \(path(of: route))") }
}

/// The ids a route names: the session's, and the node, screen or version of a path under it.
func ids(of route: Route) -> [String] {
    guard case .session(let id, let path) = route else { return [] }
    switch path {
    case .list(let node), .params(let node), .ui(let node), .presentation(let node): return [id, node]
    case .result(let node, let screen): return [id, node, screen]
    case .version(let version): return [id, version]
    case .state, .events, .operation, .link, .restore: return [id]
    }
}

/// The path that names a route.
func path(of route: Route) -> String {
    switch route {
    case .server(let path):
        switch path {
        case .health: "/healthz"
        case .metrics: "/metrics"
        case .webAsset(let name): name == "index.html" ? "/" : "/web/\(name)"
        case .app: "/v1/app"
        case .server: "/v1/server"
        case .sessions: "/v1/sessions"
        case .analytics(let report): "/v1/admin/analytics/\(report.rawValue)"
        }
    case .session(let id, let path):
        "/v1/sessions/\(id)" + {
            switch path {
            case .state: ""
            case .events: "/events"
            case .operation(let operation): "/\(operation.rawValue)"
            case .list(let node): "/nodes/\(node)/list"
            case .params(let node): "/nodes/\(node)/params"
            case .ui(let node): "/nodes/\(node)/ui"
            case .presentation(let node): "/nodes/\(node)/presentation"
            case .result(let node, let screen): "/nodes/\(node)/results/\(screen)"
            case .link: "/link"
            case .version(let version): "/versions/\(version)"
            case .restore: "/restore"
            }
        }()
    }
}

/// Every byte as `%XX`, the simplest encoding that must decode back to the same bytes.
func percentEncoded(_ text: String) -> [UInt8] {
    let digits = Array("0123456789ABCDEF".utf8)
    return text.utf8.flatMap { [UInt8(ascii: "%"), digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
}

runFuzzer(fuzzPath)
