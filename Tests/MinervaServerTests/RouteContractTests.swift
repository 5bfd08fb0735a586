import Foundation
@testable import MinervaServer
import Testing

/// The paths openapi.yaml lists and the routes the server answers are the same: each documented
/// path (its placeholders filled) is a route that answers exactly the documented methods, and
/// the `route` label names `/metrics` documents are exactly the routes' metric names.
@Suite struct RouteContractTests {
    static let contract: String = {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        return (try? String(contentsOf: document, encoding: .utf8)) ?? ""
    }()

    /// Each path under `paths:` with the methods listed under it (upper-cased).
    static let documented: [(path: String, methods: Set<String>)] = {
        var paths: [(path: String, methods: Set<String>)] = []
        var inPaths = false
        for line in contract.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty, !line.hasPrefix(" ") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                paths.append((String(line.dropFirst(2).dropLast()), []))
            } else if let method = ["get", "head", "post", "put", "patch", "delete"].first(where: { line == "    \($0):" }), !paths.isEmpty {
                paths[paths.count - 1].methods.insert(method.uppercased())
            }
        }
        return paths
    }()

    /// A documented path with its placeholders filled as a client would.
    static func filled(_ pattern: String) -> String {
        let values = ["{id}": "s_abc", "{node}": "n3", "{screen}": "login", "{version}": "4", "{fileName}": "app.js"]
        return values.reduce(pattern) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    @Test func theContractListsThePaths() {
        #expect(Self.documented.count > 20)
    }

    @Test(arguments: documented.map(\.path))
    func eachDocumentedPathIsARouteWithItsMethods(pattern: String) throws {
        let route = try #require(Route(path: Self.filled(pattern)), "openapi.yaml lists \(pattern), which the server does not route")
        let documented = Self.documented.first { $0.path == pattern }!.methods
        // HEAD is answered wherever GET is, documented or not.
        let expected = documented.contains("GET") ? documented.union(["HEAD"]) : documented
        #expect(Set(route.allowedMethods) == expected, "\(pattern): the server answers \(route.allowedMethods.sorted())")
    }

    @Test func metricsNameExactlyTheRoutes() throws {
        let start = try #require(Self.contract.range(of: "`route` is one of"))
        let end = try #require(Self.contract.range(of: "for a path that is not listed here", range: start.upperBound..<Self.contract.endIndex))
        let listed = Self.contract[start.upperBound..<end.lowerBound].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let routed = Self.documented.compactMap { Route(path: Self.filled($0.path))?.metricName }
        #expect(Set(listed) == Set(routed).union(["unknown"]))
    }
}
