/// The API's paths, recognised before anything else is checked.
enum Route: Equatable {
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
    /// `/v1/sessions/{id}`
    case session(String)
    /// `/v1/sessions/{id}/events`
    case events(String)
    /// `/v1/sessions/{id}/{operation}`
    case operation(String, Operation)
    /// `/v1/sessions/{id}/nodes/{node}/list`
    case list(String, node: String)
    /// `/v1/sessions/{id}/nodes/{node}/params`
    case params(String, node: String)
    /// `/v1/sessions/{id}/nodes/{node}/ui`
    case ui(String, node: String)
    /// `/v1/sessions/{id}/nodes/{node}/presentation`
    case presentation(String, node: String)
    /// `/v1/sessions/{id}/nodes/{node}/results/{screen}`
    case result(String, node: String, screen: String)
    /// `/v1/sessions/{id}/link`
    case link(String)
    /// `/v1/sessions/{id}/versions/{version}`
    case version(String, version: String)
    /// `/v1/sessions/{id}/restore`
    case restore(String)
    /// `/v1/admin/analytics/{report}` (only with an admin token)
    case analytics(AnalyticsReport)

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
        case .health, .metrics, .app, .server, .events, .link, .webAsset, .version, .analytics: ["GET", "HEAD"]
        case .sessions, .operation, .restore, .presentation: ["POST"]
        case .session: ["GET", "HEAD", "DELETE"]
        case .list: ["GET", "HEAD", "PUT"]
        case .params: ["PATCH"]
        case .ui: ["PUT"]
        case .result: ["DELETE"]
        }
    }

    /// The route's name in metrics: a fixed set, never an id.
    var metricName: String {
        switch self {
        case .health: "healthz"
        case .webAsset: "web"
        case .app: "app"
        case .server: "server"
        case .sessions: "sessions"
        case .session: "session"
        case .events: "events"
        case .operation(_, let operation): operation.rawValue
        case .list: "list"
        case .params: "params"
        case .ui: "ui"
        case .presentation: "presentation"
        case .result: "result"
        case .link: "link"
        case .version: "version"
        case .restore: "restore"
        case .metrics: "metrics"
        case .analytics(let report): "analytics_" + report.rawValue
        }
    }

    /// The session the path names, if any.
    /// Whether answering may read or write the session store: a session's paths, creating one,
    /// and the health check (which asks the store).
    var usesStore: Bool {
        switch self {
        case .session, .events, .operation, .list, .params, .ui, .presentation, .result, .link, .version, .restore, .sessions, .health, .analytics: true
        case .metrics, .app, .server, .webAsset: false
        }
    }

    var sessionID: String? {
        switch self {
        case .session(let id), .events(let id), .operation(let id, _), .list(let id, _), .params(let id, _), .ui(let id, _), .presentation(let id, _), .result(let id, _, _),
            .link(let id), .version(let id, _), .restore(let id):
            id
        case .health, .metrics, .app, .server, .sessions, .webAsset, .analytics: nil
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
        case 3...7 where segment(0, is: "v1") && segment(1, is: "sessions") && !isEmpty(2):
            return sessionRoute(id: string(2))
        default: return nil
        }
    }

    /// The routes under `/v1/sessions/{id}`.
    private func sessionRoute(id: String) -> Route? {
        switch count {
        case 3: return .session(id)
        case 4 where segment(3, is: "events"): return .events(id)
        case 4 where segment(3, is: "link"): return .link(id)
        case 4 where segment(3, is: "restore"): return .restore(id)
        case 5 where segment(3, is: "versions") && !isEmpty(4): return .version(id, version: string(4))
        case 4: return Route.Operation(rawValue: string(3)).map { .operation(id, $0) }
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "list"): return .list(id, node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "params"): return .params(id, node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "ui"): return .ui(id, node: string(4))
        case 6 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "presentation"): return .presentation(id, node: string(4))
        case 7 where segment(3, is: "nodes") && !isEmpty(4) && segment(5, is: "results") && !isEmpty(6):
            return .result(id, node: string(4), screen: string(6))
        default: return nil
        }
    }
}
