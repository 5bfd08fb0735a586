import Foundation
@testable import MinervaServer
import Testing

/// openapi.yaml and the endpoints' table (``Endpoint/all``) say the same: each path and method
/// documented is exactly one endpoint's pattern and method, every endpoint is documented, each
/// endpoint is what its own path routes to, and the `route` label names `/metrics` documents are
/// exactly the endpoints' metric names.
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

    /// Each endpoint's pattern, as written in the table.
    static let patterns = Endpoint.all.map { "\($0.pattern.text)" }

    /// A pattern with its placeholders filled as a client would.
    static func filled(_ pattern: String) -> String {
        let values = ["{id}": "s_abc", "{node}": "n3", "{screen}": "login", "{version}": "4", "{fileName}": "app.js"]
        return values.reduce(pattern) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    @Test func theContractListsThePaths() {
        #expect(Self.documented.count > 20)
    }

    @Test func theDocumentedMethodsAreExactlyTheEndpoints() {
        let documented = Set(Self.documented.flatMap { path in path.methods.map { "\($0) \(path.path)" } })
        let answered = Set(Endpoint.all.flatMap { endpoint in endpoint.methods.map { "\($0) \(endpoint.pattern.text)" } })
        #expect(documented.subtracting(answered).isEmpty, "documented, but no endpoint answers: \(documented.subtracting(answered).sorted())")
        #expect(answered.subtracting(documented).isEmpty, "answered, but not in openapi.yaml: \(answered.subtracting(documented).sorted())")
    }

    @Test func eachPatternIsOneEndpoint() {
        #expect(Set(Self.patterns).count == Self.patterns.count, "\(Self.patterns.sorted())")
    }

    @Test(arguments: patterns)
    func eachEndpointIsWhatItsPathRoutesTo(pattern: String) {
        #expect(Route(path: Self.filled(pattern)).map { "\($0.endpoint.pattern.text)" } == pattern)
    }

    @Test func theSessionsEndpointsAreTheOnesThatNameASession() {
        for endpoint in Endpoint.all {
            let namesASession = "\(endpoint.pattern.text)".hasPrefix("/v1/sessions/{id}")
            guard case .session = endpoint.handler else {
                #expect(!namesASession, "\(endpoint.pattern.text) is answered without its session")
                continue
            }
            #expect(namesASession, "\(endpoint.pattern.text) is answered with a session it does not name")
        }
    }

    @Test func eachMetricNameIsOneEndpoint() {
        let shared = Dictionary(grouping: Endpoint.all.map(\.metricName)) { $0 }.filter { $0.value.count > 1 }
        // `/` is the web client's `index.html`, counted as `web` like its other files.
        #expect(shared.mapValues(\.count) == ["web": 2])
    }

    @Test func metricsNameExactlyTheEndpoints() throws {
        let start = try #require(Self.contract.range(of: "`route` is one of"))
        let end = try #require(Self.contract.range(of: "for a path that is not listed here", range: start.upperBound..<Self.contract.endIndex))
        let listed = Self.contract[start.upperBound..<end.lowerBound].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(listed) == Set(Endpoint.all.map(\.metricName)).union(["unknown"]))
    }
}
