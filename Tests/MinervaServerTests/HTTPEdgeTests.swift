import MicroHTTP
import MinervaJSON
@testable import MinervaServer
import Testing

/// What the API answers at the HTTP edge: malformed requests first, `Retry-After` on `503`.
@Suite struct HTTPEdgeTests {
    let client = InProcessClient()

    @Test func aMalformedRequestIs400BeforeTheRouteAndTheToken() {
        for path in ["/healthz", "/v1/sessions/s_unknown/push", "/nowhere"] {
            let reply = client.api.reply(
                to: HTTPRequest(method: "POST", path: path, malformation: "the path contains a NUL byte (%00)"))
            guard case .response(let answer) = reply else { Issue.record("answered later"); continue }
            #expect(answer.status == 400)
            let error = (try? JSONParser.parse(answer.body))?.objectValue?["error"]?.objectValue
            #expect(error?["code"] == "invalid_request")
            #expect(error?["message"] == "the path contains a NUL byte (%00)")
        }
    }

    @Test func every503CarriesRetryAfter() {
        for _ in 0..<3 { _ = client.createSession() }
        let answer = client.send("POST", "/v1/sessions")
        #expect(answer.status == 503)
        #expect(answer.headers.contains { $0.name == "Retry-After" && $0.value == "60" })
    }
}
