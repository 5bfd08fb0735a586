import Foundation
import Logging
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaSessions
import MinervaSQLite
@testable import MinervaServer
import TestSupport
import Testing

/// The API called in process, without sockets: the same handlers the live server runs.
struct InProcessClient {
    let api: MinervaAPI

    init(
        configuration: ServerConfiguration = ServerConfiguration(sessions: SessionConfiguration(maxSessions: 3)),
        storage: (any SessionStorage & AnalyticsStorage)? = nil
    ) {
        api = try! MinervaAPI(app: .tabs, configuration: configuration, logger: Logger(label: "test"), persistence: .of(storage))
    }

    init(api: MinervaAPI) {
        self.api = api
    }

    /// The body of the answer, as text.
    func body(
        _ method: String, _ path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = []
    ) -> String {
        let response = answer(HTTPRequest(method: method, path: path, query: query, headers: headers, body: [], bodyExceedsLimit: false))
        return String(decoding: response.body, as: UTF8.self)
    }

    func send(_ method: String, _ path: String, _ body: String = "", headers: [(name: String, value: String)] = [], tooLarge: Bool = false)
        -> (status: Int, headers: [(name: String, value: String)], json: JSONValue?)
    {
        let response = answer(HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8), bodyExceedsLimit: tooLarge))
        return (response.status, response.headers, response.body.isEmpty ? nil : try? JSONParser.parse(response.body, maximumDepth: 4096))
    }

    /// The answer to a request: at once, or (a durable mutation) once it is stored.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch api.reply(to: request) {
        case .response(let response):
            return response
        case .deferred(let deferred):
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let response = deferred.response { return response }
                usleep(200)
            }
            preconditionFailure("no answer within 10 s")
        case .stream:
            preconditionFailure("an in-process request cannot follow a stream")
        }
    }

    func createSession() -> (id: String, auth: (name: String, value: String)) {
        let created = send("POST", "/v1/sessions")
        let members = created.json!.objectValue!
        return (members["id"]!.stringValue!, ("Authorization", "Bearer \(members["token"]!.stringValue!)"))
    }
}

func errorCode(_ json: JSONValue?) -> String? {
    json?.objectValue?["error"]?.objectValue?["code"]?.stringValue
}

@Suite struct APITests {
    let client = InProcessClient()

    @Test func checksRunInTheContractsOrder() {
        let (id, auth) = client.createSession()
        // unknown path first, whatever else is wrong
        #expect(client.send("PATCH", "/v1/sessions/\(id)/jump", tooLarge: true).status == 404)
        // 401 before 405 before 413 before 412 before 400 before 404 before 422 before 409
        #expect(client.send("PATCH", "/v1/sessions/\(id)/push", tooLarge: true).status == 401)
        #expect(client.send("PATCH", "/v1/sessions/\(id)/push", headers: [auth], tooLarge: true).status == 405)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", "{", headers: [auth, ("If-Match", "\"9\"")], tooLarge: true).status == 413)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", "{", headers: [auth, ("If-Match", "\"9\"")]).status == 412)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", "{", headers: [auth]).status == 400)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "nowhere", "from": "n8"}"#, headers: [auth]).status == 404)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "nowhere", "from": "n0"}"#, headers: [auth]).status == 422)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "home", "from": "n0"}"#, headers: [auth]).status == 409)
    }

    @Test func errorBodiesCarryCodeAndMessage() {
        let answer = client.send("GET", "/v1/sessions")
        #expect(answer.status == 405)
        #expect(errorCode(answer.json) == "method_not_allowed")
        #expect(answer.headers.contains { $0.name == "Allow" && $0.value == "POST" })
        #expect(answer.headers.contains { $0.name == "Content-Type" && $0.value == "application/json; charset=utf-8" })
    }

    @Test func theSessionLimitAnswers503() {
        for _ in 0..<3 { _ = client.createSession() }
        let answer = client.send("POST", "/v1/sessions")
        #expect(answer.status == 503)
        #expect(errorCode(answer.json) == "unavailable")
        #expect(client.api.core.sessionCount == 3)
    }

    @Test func anUnknownDeepLinkCreatesNoSession() {
        let answer = client.send("POST", "/v1/sessions", #"{"deepLink": "/nowhere"}"#)
        #expect(answer.status == 404)
        #expect(client.api.core.sessionCount == 0)
        #expect(client.send("POST", "/v1/sessions", #"{"deepLink": "/users/1"}"#).status == 201)
    }

    @Test func mutationsAnswerTheNewStateWithItsETag() {
        let (id, auth) = client.createSession()
        let answer = client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth])
        #expect(answer.status == 200)
        #expect(answer.json?.objectValue?["version"] == 2)
        #expect(answer.headers.contains { $0.name == "ETag" && $0.value == "\"2\"" })
    }
}

@Suite struct HelperTests {
    @Test(arguments: [
        ("/healthz", "/healthz", [:]), ("/", "/", [:]), ("/web/app.js", "/web/{fileName}", ["fileName": "app.js"]), ("/v1/app", "/v1/app", [:]),
        ("/v1/server", "/v1/server", [:]), ("/v1/sessions", "/v1/sessions", [:]), ("/v1/sessions/abc", "/v1/sessions/{id}", ["id": "abc"]),
        ("/v1/sessions/abc/events", "/v1/sessions/{id}/events", ["id": "abc"]), ("/metrics", "/metrics", [:]),
        ("/v1/sessions/abc/set-root", "/v1/sessions/{id}/set-root", ["id": "abc"]), ("/v1/sessions/abc/link", "/v1/sessions/{id}/link", ["id": "abc"]),
        ("/v1/sessions/é/deep-link", "/v1/sessions/{id}/deep-link", ["id": "é"]),
        ("/v1/sessions/s_1/nodes/n3/list", "/v1/sessions/{id}/nodes/{node}/list", ["id": "s_1", "node": "n3"]),
        ("/v1/sessions/s_1/nodes/n3/results/login", "/v1/sessions/{id}/nodes/{node}/results/{screen}", ["id": "s_1", "node": "n3", "screen": "login"]),
        ("/v1/sessions/s_1/versions/4", "/v1/sessions/{id}/versions/{version}", ["id": "s_1", "version": "4"]),
        ("/v1/admin/analytics/funnel", "/v1/admin/analytics/funnel", [:]),
    ] as [(String, String, [String: String])])
    func routesAreRecognised(path: String, pattern: String, ids: [String: String]) throws {
        let route = try #require(Route(path: path))
        #expect("\(route.endpoint.pattern.text)" == pattern)
        let found = [
            "id": route.parameters.id, "node": route.parameters.node, "screen": route.parameters.screen, "version": route.parameters.version,
            "fileName": route.parameters.fileName,
        ]
        #expect(found.filter { !$0.value.isEmpty } == ids)
    }

    @Test(arguments: [
        "", "/v1", "/v1/sessions/", "/v1/sessions//push", "/v1/sessions/a/b/c", "v1/app", "/healthz/", "//", "/web/", "/web/nope.js",
        "/v1/sessions/a/nodes//list", "/v1/sessions/a/nodes/n1/lists", "/v1/sessions/a/nodes/n1/list/", "/v1/sessions/a/push/x/y/z",
        "/v1/sessions/a/Push", "/V1/app", "/healthzz", "/health", "/v1/admin/analytics/nope", "/v1/admin/analytics/",
        "/v1/sessions/a/versions/", "/v1/sessions/a/nodes/n1/results/",
    ])
    func unknownPathsAreNot(path: String) {
        #expect(Route(path: path) == nil)
    }

    @Test func ifMatchAcceptsStarListsAndWeakTags() throws {
        #expect(try IfMatch(nil, name: "If-Match").matches(version: 3))
        #expect(try IfMatch("*", name: "If-Match").matches(version: 3))
        #expect(try IfMatch("\"3\"", name: "If-Match").matches(version: 3))
        #expect(try IfMatch(" \"1\" , W/\"3\"", name: "If-Match").matches(version: 3))
        #expect(try !IfMatch("\"2\"", name: "If-Match").matches(version: 3))
    }

    @Test(arguments: [
        ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BeArEr   abc \t", "abc"), (" \tBearer x-y_z", "x-y_z"), ("Bearer a b", "a b"),
        ("Bearer", nil), ("Bearer ", nil), ("Bearer  \t ", nil), ("Bearerabc", nil), ("Bearer\tabc", nil), ("Basic abc", nil),
        ("", nil), ("Bearér abc", nil), ("Bearer é", "é"),
    ] as [(String, String?)])
    func bearerTokensAreReadFromTheAuthorizationField(field: String, token: String?) {
        #expect(BearerToken.parse(field) == token)
    }

    @Test func excerptsAreShortAndEscaped() {
        #expect(Excerpt("a\nb").description == "'a\\nb'")
        #expect(Excerpt(String(repeating: "x", count: 500)).description.count == 67)
    }
}

@Suite struct ListContentTests {
    /// A list's content comes back as canonical JSON (keys sorted, `1.0` as `1`, strings as sent),
    /// and a PUT that only respells it updates no cell; both survive a restart from storage.
    @Test func contentIsCanonicalAndSurvivesARestart() throws {
        let path = "/tmp/minerva-list-content-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = ServerConfiguration(sessions: SessionConfiguration(maxSessions: 3))
        let first = InProcessClient(
            api: try MinervaAPI(app: .tabs, configuration: configuration, logger: Logger(label: "test"), persistence: .local(try SQLiteSessionStorage(path: path))))
        let (id, auth) = first.createSession()
        let put = first.send(
            "PUT", "/v1/sessions/\(id)/nodes/n1/list",
            #"{"sections": [{"id": "s", "items": [{"id": "1", "kind": "k", "content": {"b": 1.0, "a": "e\u0301"}}, {"id": "2", "kind": "k"}]}]}"#,
            headers: [auth])
        #expect(put.status == 200)
        let respelled = first.send(
            "PUT", "/v1/sessions/\(id)/nodes/n1/list",
            #"{"sections": [{"id": "s", "items": [{"id": "1", "kind": "k", "content": {"a": "e\u0301", "b": 1}}, {"id": "2", "kind": "k", "content": null}]}]}"#,
            headers: [auth])
        #expect(respelled.json?.objectValue?["diff"]?.objectValue?["items"]?.objectValue?["updated"] == [])
        let expected = #"{"version":2,"sections":[{"id":"s","items":[{"id":"1","kind":"k","content":{"a":"e\#u{301}","b":1}},{"id":"2","kind":"k","content":null}]}],"diff":{"from":0,"to":2,"sections":{"deleted":[],"inserted":[0],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#
        #expect(first.body("GET", "/v1/sessions/\(id)/nodes/n1/list", query: [("since", "0")], headers: [auth]) == expected)

        let second = InProcessClient(
            api: try MinervaAPI(app: .tabs, configuration: configuration, logger: Logger(label: "test"), persistence: .local(try SQLiteSessionStorage(path: path))))
        #expect(second.body("GET", "/v1/sessions/\(id)/nodes/n1/list", query: [("since", "0")], headers: [auth]) == expected)
    }
}

/// A single-root app file keeps its `GET /v1/app` document and version byte for byte across the
/// release that added root flows: an upgrade moves no session.
@Suite struct SingleRootDocumentTests {
    @Test func theDemoAppOfBeforeKeepsItsVersion() throws {
        var app = AppDescription.tabs
        app.name = "demo"
        app.scheme = "demo"
        // The test file says which screens return results, which the demo app of before could not.
        for screen in app.screenOrder { app.screens[screen]!.returnsResult = false }
        // The built-in demo app's version before root flows (openapi.yaml's example then).
        #expect(MinervaAPI.version(of: app) == "781481fb011c38776de8ac9dc704b7b025bac1671d23e86b78d32ae6ee68ad82")
    }
}
