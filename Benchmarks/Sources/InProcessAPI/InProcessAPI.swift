// An in-process MinervaAPI (memory store) and the requests that the model and memory benchmarks
// send it through its public `reply(to:)`, the same entry point the HTTP server calls.
import Logging
public import MicroHTTP
public import MinervaCoordinator
public import MinervaServer
public import MinervaSessions
#if canImport(Glibc)
import Glibc
#endif
import MinervaJSON

/// A session made through the API: its id and bearer token.
public struct SessionCredentials: Sendable {
    public let id: String
    public let token: String
    /// The id of the focused node when the session was made.
    public let focus: String
}

public enum InProcessAPIError: Error, CustomStringConvertible {
    case unexpected(status: Int, body: String)
    case notAResponse

    public var description: String {
        switch self {
        case .unexpected(let status, let body): "unexpected status \(status): \(body)"
        case .notAResponse: "the API answered with a stream"
        }
    }
}

/// The API with a logger at `.critical` (request logs cost nothing), the given configuration
/// and, optionally, a store (the memory store when `nil`).
public func makeAPI(
    app: AppDescription = .tabs, configuration: ServerConfiguration = ServerConfiguration(sessions: SessionConfiguration(rateLimit: 0)),
    storage: (any SessionStorage & AnalyticsStorage)? = nil
) -> MinervaAPI {
    var logger = Logger(label: "minerva-bench")
    logger.logLevel = .critical
    do {
        #if STORAGE_PARAMETER
        // An earlier build, measured beside this one (Benchmarks/callgrind.sh): its API took the store itself.
        return try MinervaAPI(app: app, configuration: configuration, logger: logger, storage: storage)
        #else
        let persistence: Persistence =
            if let shared = storage as? any SharedSessionStorage & AnalyticsStorage { .shared(shared) } else if let storage { .local(storage) } else {
                .memory
            }
        return try MinervaAPI(app: app, configuration: configuration, logger: logger, persistence: persistence)
        #endif
    } catch {
        preconditionFailure("cannot read the store: \(error)")
    }
}

extension MinervaAPI {
    /// Sends a request and returns the response, checking its status.
    @discardableResult
    public func send(_ method: String, _ path: String, token: String? = nil, body: String = "", expect: Int = 200) throws
        -> HTTPResponse
    {
        var headers: [(name: String, value: String)] = []
        if let token { headers.append(("authorization", "Bearer \(token)")) }
        if !body.isEmpty { headers.append(("content-type", "application/json")) }
        let response = try answer(HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8)))
        guard response.status == expect else {
            throw InProcessAPIError.unexpected(status: response.status, body: String(decoding: response.body, as: UTF8.self))
        }
        return response
    }

    /// The answer to a request: at once, or (a durable mutation) once its group is committed.
    public func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        switch reply(to: request) {
        case .response(let response):
            return response
        case .deferred(let deferred):
            while deferred.response == nil { sched_yield() }
            return deferred.response!
        case .stream:
            throw InProcessAPIError.notAResponse
        }
    }

    /// `POST /v1/sessions` with an empty body; the id, token and focus from the state document.
    public func createSession() throws -> SessionCredentials {
        let response = try send("POST", "/v1/sessions", body: "{}", expect: 201)
        let document = try JSONParser.parse(response.body)
        guard let object = document.objectValue, let id = object["id"]?.stringValue, let token = object["token"]?.stringValue,
            let focus = object["focus"]?.stringValue
        else {
            throw InProcessAPIError.unexpected(status: response.status, body: String(decoding: response.body, as: UTF8.self))
        }
        return SessionCredentials(id: id, token: token, focus: focus)
    }

    /// `POST /v1/sessions/{id}/push` of a `profile` screen with `userId`.
    public func pushProfile(_ session: SessionCredentials, userId: Int) throws {
        try send(
            "POST", "/v1/sessions/\(session.id)/push", token: session.token, body: #"{"screen":"profile","params":{"userId":"\#(userId)"}}"#)
    }

    /// `PUT /v1/sessions/{id}/nodes/{node}/list` with `items` cells in one section, like
    /// make-sessions.py's list: `{"id": "u<i>", "kind": "user", "content": {"name", "followers"}}`.
    public func putList(_ session: SessionCredentials, node: String, items: Int) throws {
        try send("PUT", "/v1/sessions/\(session.id)/nodes/\(node)/list", token: session.token, body: listBody(items: items))
    }

    /// The GET request of a session's state document.
    public static func getStateRequest(_ session: SessionCredentials) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/v1/sessions/\(session.id)", headers: [("authorization", "Bearer \(session.token)")])
    }
}

/// The body of a list PUT with `items` cells.
public func listBody(items: Int) -> String {
    let cells = (0..<items).map { #"{"id":"u\#($0)","kind":"user","content":{"name":"User \#($0)","followers":\#($0)}}"# }
    return #"{"sections":[{"id":"followers","items":["# + cells.joined(separator: ",") + "]}]}"
}

/// An app whose longest route has 5 steps: two pushes, a presented form sheet with a navigation
/// stack, and two pushes on it; parameters from the path on three of them.
public let fiveStepAppJSON = #"""
    {
      "name": "deep",
      "scheme": "deep",
      "root": {"screen": "home"},
      "screens": {
        "home":    {"presentation": "push", "title": "Home"},
        "shop":    {"presentation": "push", "params": ["shopId"], "title": "Shop"},
        "product": {"presentation": "push", "params": ["productId"], "title": "Product"},
        "review":  {"presentation": "present", "style": "formSheet", "embedInNavigation": true, "title": "Review"},
        "photos":  {"presentation": "push", "title": "Photos"},
        "photo":   {"presentation": "push", "params": ["photoId"], "title": "Photo"}
      },
      "routes": [
        {"path": "/shops/:shopId", "steps": [{"screen": "shop", "params": {"shopId": ":shopId"}}]},
        {"path": "/shops/:shopId/products/:productId/review/photos/:photoId",
         "steps": [{"screen": "shop", "params": {"shopId": ":shopId"}},
                   {"screen": "product", "params": {"productId": ":productId"}},
                   {"screen": "review"},
                   {"screen": "photos"},
                   {"screen": "photo", "params": {"photoId": ":photoId"}}]}
      ]
    }
    """#

/// The deep link that follows the 5-step route of ``fiveStepAppJSON``.
public let fiveStepLink = "/shops/7/products/42/review/photos/3"

/// The app of ``fiveStepAppJSON``, parsed as the server would parse a file.
public func fiveStepApp() -> AppDescription {
    try! AppDescription.parse(Array(fiveStepAppJSON.utf8), source: "bench")
}
