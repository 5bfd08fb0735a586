/// The API's paths, recognised before anything else is checked.
enum Route: Equatable {
    /// `/healthz`
    case health
    /// `/metrics`
    case metrics
    /// `/` (the web client's page) and `/web/{file}`
    case webAsset(String)
    /// `/v1/app`
    case app
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
    /// `/v1/sessions/{id}/link`
    case link(String)

    /// The navigation operations, by their path segment.
    enum Operation: String, CaseIterable {
        case push, present, dismiss, pop, navigate, finish, flags
        case setRoot = "set-root"
        case deepLink = "deep-link"
        case selectTab = "select-tab"
    }

    /// Recognises a path; `nil` means an unknown path (`404`).
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "" else { return nil }
        switch parts.count {
        case 2 where parts[1] == "": self = .webAsset("index.html")
        case 2 where parts[1] == "healthz": self = .health
        case 2 where parts[1] == "metrics": self = .metrics
        case 3 where parts[1] == "web" && WebAssets.contains(String(parts[2])): self = .webAsset(String(parts[2]))
        case 3 where parts[1] == "v1" && parts[2] == "app": self = .app
        case 3 where parts[1] == "v1" && parts[2] == "sessions": self = .sessions
        case 4 where parts[1] == "v1" && parts[2] == "sessions" && !parts[3].isEmpty:
            self = .session(String(parts[3]))
        case 5 where parts[1] == "v1" && parts[2] == "sessions" && !parts[3].isEmpty:
            if parts[4] == "events" {
                self = .events(String(parts[3]))
            } else if parts[4] == "link" {
                self = .link(String(parts[3]))
            } else if let operation = Operation(rawValue: String(parts[4])) {
                self = .operation(String(parts[3]), operation)
            } else {
                return nil
            }
        case 7 where parts[1] == "v1" && parts[2] == "sessions" && !parts[3].isEmpty && parts[4] == "nodes" && !parts[5].isEmpty
            && parts[6] == "list":
            self = .list(String(parts[3]), node: String(parts[5]))
        default:
            return nil
        }
    }

    /// The methods this path answers.
    var allowedMethods: [String] {
        switch self {
        case .health, .metrics, .app, .events, .link, .webAsset: ["GET", "HEAD"]
        case .sessions, .operation: ["POST"]
        case .session: ["GET", "HEAD", "DELETE"]
        case .list: ["GET", "HEAD", "PUT"]
        }
    }

    /// The route's name in metrics: a fixed set, never an id.
    var metricName: String {
        switch self {
        case .health: "healthz"
        case .webAsset: "web"
        case .app: "app"
        case .sessions: "sessions"
        case .session: "session"
        case .events: "events"
        case .operation(_, let operation): operation.rawValue
        case .list: "list"
        case .link: "link"
        case .metrics: "metrics"
        }
    }

    /// The session the path names, if any.
    var sessionID: String? {
        switch self {
        case .session(let id), .events(let id), .operation(let id, _), .list(let id, _), .link(let id): id
        case .health, .metrics, .app, .sessions, .webAsset: nil
        }
    }
}
