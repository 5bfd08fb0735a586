import MicroHTTP
import MinervaJSON
import MinervaModel
@testable import MinervaServer
import MinervaSessions
import Testing

/// The admin analytics paths: off without a token, never open to a session's token, strict queries.
@Suite struct AnalyticsAPITests {
    let admin = ("Authorization", "Bearer admin-secret")

    func client(adminToken: String? = "admin-secret") -> InProcessClient {
        InProcessClient(configuration: ServerConfiguration(sessions: SessionConfiguration(maxSessions: 3, rateLimit: 0), adminToken: adminToken))
    }

    func get(_ client: InProcessClient, _ path: String, _ query: [(name: String, value: String)] = [], headers: [(name: String, value: String)])
        -> (status: Int, json: JSONValue?)
    {
        let response = client.answer(HTTPRequest(method: "GET", path: path, query: query, headers: headers, body: [], bodyExceedsLimit: false))
        return (response.status, try? JSONParser.parse(response.body))
    }

    @Test(arguments: ["screens", "funnel", "flows"])
    func withoutAnAdminTokenTheyAreUnknownPaths(report: String) {
        let answer = get(client(adminToken: nil), "/v1/admin/analytics/\(report)", headers: [admin])
        #expect(answer.status == 404)
    }

    @Test func aSessionTokenOrNoneIsRefused() {
        let client = client()
        let (_, auth) = client.createSession()
        #expect(get(client, "/v1/admin/analytics/screens", headers: [auth]).status == 401)
        #expect(get(client, "/v1/admin/analytics/screens", headers: []).status == 401)
        #expect(get(client, "/v1/admin/analytics/nothing", headers: [admin]).status == 404)
    }

    @Test func queriesAreCheckedStrictly() {
        let client = client()
        let refused: [[(name: String, value: String)]] = [
            [("since", "yesterday")], [("until", "2026-13-01T00:00:00Z")], [("bogus", "1")],
            [("since", "2026-11-24T10:00:00Z"), ("since", "2026-11-24T11:00:00Z")],
        ]
        for query in refused {
            let answer = get(client, "/v1/admin/analytics/screens", query, headers: [admin])
            #expect(answer.status == 400, "\(query)")
            #expect(answer.json?.objectValue?["error"]?.objectValue?["message"]?.stringValue?.isEmpty == false)
        }
        #expect(get(client, "/v1/admin/analytics/funnel", headers: [admin]).status == 400)
        #expect(get(client, "/v1/admin/analytics/funnel", [("steps", "home,nowhere")], headers: [admin]).status == 400)
        #expect(get(client, "/v1/admin/analytics/funnel", [("steps", "home"), ("within", "soon")], headers: [admin]).status == 400)
        #expect(get(client, "/v1/admin/analytics/funnel", [("steps", "home"), ("within", "+5m")], headers: [admin]).status == 400)
        #expect(get(client, "/v1/admin/analytics/funnel", [("steps", "home"), ("within", "05m")], headers: [admin]).status == 400)
        #expect(get(client, "/v1/admin/analytics/flows", [("steps", "home")], headers: [admin]).status == 400)
    }

    @Test func reportsAnswerWhatSessionsDid() {
        let client = client()
        let (id, auth) = client.createSession()
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth]).status == 200)
        #expect(client.send("POST", "/v1/sessions/\(id)/pop", "{}", headers: [auth]).status == 200)
        let screens = get(client, "/v1/admin/analytics/screens", [("since", "2000-01-01T00:00:00+01:00")], headers: [admin])
        #expect(screens.status == 200)
        let profile = screens.json?.objectValue?["screens"]?.arrayValue?.first { $0.objectValue?["screen"]?.stringValue == "profile" }
        #expect(profile?.objectValue?["exits"]?.objectValue?["pop"]?.intValue == 1)
        let funnel = get(client, "/v1/admin/analytics/funnel", [("steps", "home,profile,followers"), ("within", "30m")], headers: [admin])
        #expect(funnel.status == 200)
        #expect(funnel.json?.objectValue?["within"]?.intValue == 1800)
        #expect(funnel.json?.objectValue?["steps"]?.arrayValue?.compactMap { $0.objectValue?["sessions"]?.intValue } == [1, 1, 0])
        #expect(get(client, "/v1/admin/analytics/flows", headers: [admin]).json?.objectValue?["flows"]?.arrayValue?.isEmpty == true)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0), ("2026-11-24T01:02:03.456Z", 1_795_482_123_456), ("2026-11-24T03:02:03.4+02:00", 1_795_482_123_400),
        ("2000-02-29t12:00:00z", 951_825_600_000),
    ])
    func rfc3339Timestamps(text: String, milliseconds: Int) {
        #expect(Timestamp.milliseconds(rfc3339: text) == milliseconds)
        #expect(Timestamp.milliseconds(rfc3339: Timestamp.rfc3339(milliseconds: milliseconds)) == milliseconds)
    }

    @Test(arguments: ["2026-11-24", "2026-02-30T00:00:00Z", "2026-11-24T01:02:03", "2026-11-24T01:02:03+2:00", "2026-11-24T25:00:00Z"])
    func notRFC3339(text: String) {
        #expect(Timestamp.milliseconds(rfc3339: text) == nil)
    }
}
