/// The API's paths, recognised before anything else is checked.
enum Route: Equatable {
    /// A path of the server's own, answered without a session.
    case server(ServerPath)
    /// `/v1/sessions/{id}` and the paths under it: answered with the session its id and bearer
    /// token name.
    case session(String, SessionPath)

    /// The paths answered without a session.
    enum ServerPath: Equatable {
        /// `/healthz`
        case health
        /// `/metrics`
        case metrics
        /// `/` (the web client's page) and `/web/{fileName}`
        case webAsset(String)
        /// `/v1/app`
        case app
        /// `/v1/server`
        case server
        /// `/v1/sessions`
        case sessions
        /// `/v1/admin/analytics/{report}` (only with an admin token)
        case analytics(AnalyticsReport)
    }

    /// The paths of one session, under `/v1/sessions/{id}`.
    enum SessionPath: Equatable {
        /// `/v1/sessions/{id}`
        case state
        /// `/v1/sessions/{id}/events`
        case events
        /// `/v1/sessions/{id}/{operation}`
        case operation(Operation)
        /// `/v1/sessions/{id}/nodes/{node}/list`
        case list(node: String)
        /// `/v1/sessions/{id}/nodes/{node}/params`
        case params(node: String)
        /// `/v1/sessions/{id}/nodes/{node}/ui`
        case ui(node: String)
        /// `/v1/sessions/{id}/nodes/{node}/presentation`
        case presentation(node: String)
        /// `/v1/sessions/{id}/nodes/{node}/results/{screen}`
        case result(node: String, screen: String)
        /// `/v1/sessions/{id}/link`
        case link
        /// `/v1/sessions/{id}/versions/{version}`
        case version(String)
        /// `/v1/sessions/{id}/restore`
        case restore
    }

    /// The navigation operations, by their path segment.
    enum Operation: String, CaseIterable {
        case push, present, dismiss, pop, navigate, finish, flags
        case setRoot = "set-root"
        case deepLink = "deep-link"
        case selectTab = "select-tab"
        case sizeClass = "size-class"
    }

    /// Recognises a path; `nil` means an unknown path (`404`).
    /// - Complexity: O(n) in the path's bytes; it allocates only for the ids it returns.
    init?(path: String) {
        var path = path
        guard let route = path.withUTF8({ PathSegments($0)?.route }) else { return nil }
        self = route
    }

    /// The methods this path answers.
    var allowedMethods: [String] {
        switch self {
        case .server(let path): path.allowedMethods
        case .session(_, let path): path.allowedMethods
        }
    }

    /// The route's name in metrics: a fixed set, never an id.
    var metricName: String {
        switch self {
        case .server(let path): path.metricName
        case .session(_, let path): path.metricName
        }
    }

    /// Whether answering may read or write the session store: a session's paths, creating one,
    /// the health check (which asks the store) and the analytics reports.
    var usesStore: Bool {
        switch self {
        case .server(.sessions), .server(.health), .server(.analytics), .session: true
        case .server(.metrics), .server(.app), .server(.server), .server(.webAsset): false
        }
    }
}

extension Route.ServerPath {
    /// The methods this path answers.
    var allowedMethods: [String] {
        switch self {
        case .health, .metrics, .app, .server, .webAsset, .analytics: ["GET", "HEAD"]
        case .sessions: ["POST"]
        }
    }

    /// The path's name in metrics.
    var metricName: String {
        switch self {
        case .health: "healthz"
        case .webAsset: "web"
        case .app: "app"
        case .server: "server"
        case .sessions: "sessions"
        case .metrics: "metrics"
        case .analytics(let report): "analytics_" + report.rawValue
        }
    }
}

extension Route.SessionPath {
    /// The methods this path answers.
    var allowedMethods: [String] {
        switch self {
        case .events, .link, .version: ["GET", "HEAD"]
        case .operation, .restore, .presentation: ["POST"]
        case .state: ["GET", "HEAD", "DELETE"]
        case .list: ["GET", "HEAD", "PUT"]
        case .params: ["PATCH"]
        case .ui: ["PUT"]
        case .result: ["DELETE"]
        }
    }

    /// The path's name in metrics.
    var metricName: String {
        switch self {
        case .state: "session"
        case .events: "events"
        case .operation(let operation): operation.rawValue
        case .list: "list"
        case .params: "params"
        case .ui: "ui"
        case .presentation: "presentation"
        case .result: "result"
        case .link: "link"
        case .version: "version"
        case .restore: "restore"
        }
    }
}

/// The `/`-separated segments of a path, as byte ranges, matched against the API's paths.
private struct PathSegments {
    let path: UnsafeBufferPointer<UInt8>
    /// Room for as many segments as the longest API path has.
    private var ranges = InlineArray<7, Range<Int>>(repeating: 0..<0)
    private(set) var count = 0

    /// Splits a path that starts with `/`; `nil` for any other path or one with too many segments.
    init?(_ path: UnsafeBufferPointer<UInt8>) {
        guard path.first == UInt8(ascii: "/") else { return nil }
        self.path = path
        var start = 1
        for index in 1...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
            guard count < ranges.count else { return nil }
            ranges[count] = start..<index
            count += 1
            start = index + 1
        }
    }

    /// The byte range of segment `index`.
    private func range(_ index: Int) -> Range<Int> {
        ranges[index]
    }

    /// Whether segment `index` is exactly `literal`.
    private func segment(_ index: Int, is literal: StaticString) -> Bool {
        let range = range(index)
        return range.count == literal.utf8CodeUnitCount
            && UnsafeBufferPointer(rebasing: path[range]).elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Whether segment `index` is empty.
    private func isEmpty(_ index: Int) -> Bool {
        range(index).isEmpty
    }

    /// Segment `index` as a string.
    private func string(_ index: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: path[range(index)]), as: UTF8.self)
    }

    /// The API path these segments name, if any.
    var route: Route? {
        if count >= 3, segment(0, is: "v1"), segment(1, is: "sessions"), !isEmpty(2) { return sessionRoute(id: string(2)) }
        return serverPath.map { .server($0) }
    }

    /// The paths answered without a session.
    private var serverPath: Route.ServerPath? {
        switch count {
        case 1 where isEmpty(0): return .webAsset("index.html")
        case 1 where segment(0, is: "healthz"): return .health
        case 1 where segment(0, is: "metrics"): return .metrics
        case 2 where segment(0, is: "web"):
            let name = string(1)
            return WebAssets.contains(name) ? .webAsset(name) : nil
        case 2 where segment(0, is: "v1") && segment(1, is: "app"): return .app
        case 2 where segment(0, is: "v1") && segment(1, is: "server"): return .server
        case 2 where segment(0, is: "v1") && segment(1, is: "sessions"): return .sessions
        case 4 where segment(0, is: "v1") && segment(1, is: "admin") && segment(2, is: "analytics"):
            return Route.AnalyticsReport(rawValue: string(3)).map { .analytics($0) }
        default: return nil
        }
    }

    /// The routes under `/v1/sessions/{id}`.
    private func sessionRoute(id: String) -> Route? {
        let path: Route.SessionPath?
        switch count {
        case 3: path = .state
        case 4 where segment(3, is: "events"): path = .events
        case 4 where segment(3, is: "link"): path = .link
        case 4 where segment(3, is: "restore"): path = .restore
        case 5 where segment(3, is: "versions") && !isEmpty(4): path = .version(string(4))
        case 4: path = Route.Operation(rawValue: string(3)).map { .operation($0) }
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "list"): path = .list(node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "params"): path = .params(node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "ui"): path = .ui(node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "presentation"): path = .presentation(node: string(4))
        case 7 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "results") && !isEmpty(6):
            path = .result(node: string(4), screen: string(6))
        default: path = nil
        }
        return path.map { .session(id, $0) }
    }
}
