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
    let pattern = "\(route.endpoint.pattern.text)"
    for id in ids(of: route) where id.isEmpty || id.utf8.contains(UInt8(ascii: "/")) {
        finding("route \(pattern) has the id \(id.debugDescription)")
    }
    guard let again = Route(path: path(of: route)), "\(again.endpoint.pattern.text)" == pattern, ids(of: again) == ids(of: route) else {
        finding("route \(pattern) \(ids(of: route)) is not found again from \(path(of: route))")
    }
}

/// The ids a route names: one for each placeholder of its pattern.
func ids(of route: Route) -> [String] {
    let pattern = route.endpoint.pattern
    return (0..<pattern.count).compactMap { index in
        guard case .placeholder(let name) = pattern.segments[index] else { return nil }
        return value(of: name, in: route.parameters)
    }
}

/// The path that names a route: its pattern, each placeholder replaced by its id.
func path(of route: Route) -> String {
    let pattern = route.endpoint.pattern
    return pattern.text.withUTF8Buffer { text in
        (0..<pattern.count).map { index in
            switch pattern.segments[index] {
            case .literal(let range): "/" + String(decoding: text[Int(range.lowerBound)..<Int(range.upperBound)], as: UTF8.self)
            case .placeholder(let name): "/" + value(of: name, in: route.parameters)
            }
        }.joined()
    }
}

/// The id a route gives a placeholder.
func value(of name: PathParameters.Name, in parameters: PathParameters) -> String {
    switch name {
    case .id: parameters.id
    case .node: parameters.node
    case .screen: parameters.screen
    case .version: parameters.version
    case .fileName: parameters.fileName
    }
}

/// Every byte as `%XX`, the simplest encoding that must decode back to the same bytes.
func percentEncoded(_ text: String) -> [UInt8] {
    let digits = Array("0123456789ABCDEF".utf8)
    return text.utf8.flatMap { [UInt8(ascii: "%"), digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
}

runFuzzer(fuzzPath)
