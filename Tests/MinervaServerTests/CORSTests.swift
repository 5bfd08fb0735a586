import Logging
import MicroHTTP
import MinervaSessions
@testable import MinervaServer
import Testing

/// `--cors-origin`: which answers carry CORS headers, and how preflights are answered.
@Suite struct CORSTests {
    static let allowed = "http://127.0.0.1:5173"
    let client = InProcessClient(
        configuration: ServerConfiguration(sessions: SessionConfiguration(maxSessions: 3), cors: try! CORSPolicy(origins: [Self.allowed])))

    private func value(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    private func preflight(_ path: String, origin: String) -> (status: Int, headers: [(name: String, value: String)]) {
        let answer = client.send(
            "OPTIONS", path, headers: [("Origin", origin), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization")])
        return (answer.status, answer.headers)
    }

    @Test func anAllowedOriginsAnswersCarryCORSHeadersErrorsIncluded() {
        let (id, auth) = client.createSession()
        for answer in [
            client.send("GET", "/v1/sessions/\(id)", headers: [auth, ("Origin", Self.allowed)]),
            client.send("GET", "/v1/sessions/\(id)", headers: [("Origin", Self.allowed)]),
            client.send("POST", "/v1/sessions/\(id)/push", "{", headers: [auth, ("Origin", Self.allowed)]),
            client.send("GET", "/v1/nope", headers: [("Origin", Self.allowed)]),
        ] {
            #expect(value("Access-Control-Allow-Origin", in: answer.headers) == Self.allowed)
            #expect(value("Vary", in: answer.headers) == "Origin")
            #expect(value("Access-Control-Expose-Headers", in: answer.headers) == "ETag, X-Request-ID, Retry-After, Idempotent-Replayed, Minerva-Model-Version, Minerva-Already-Applied, Minerva-Applied-Version")
        }
    }

    @Test func anOriginNotAllowedGetsNoCORSHeaders() {
        let answer = client.send("GET", "/v1/app", headers: [("Origin", "http://127.0.0.1:9999")])
        #expect(answer.status == 200)
        #expect(!answer.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        #expect(value("Vary", in: answer.headers) == "Origin")
    }

    @Test func aPreflightNeedsNoTokenAndNamesTheRoutesMethods() {
        let (id, _) = client.createSession()
        let answer = preflight("/v1/sessions/\(id)/nodes/n0/list", origin: Self.allowed)
        #expect(answer.status == 204)
        #expect(value("Access-Control-Allow-Origin", in: answer.headers) == Self.allowed)
        #expect(value("Access-Control-Allow-Methods", in: answer.headers) == "GET, HEAD, PUT, PATCH")
        #expect(
            value("Access-Control-Allow-Headers", in: answer.headers)
                == "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, Minerva-Device-Change, Minerva-Device-Time, Minerva-Model-Version")
        #expect(value("Access-Control-Max-Age", in: answer.headers) == "600")
        #expect(preflight("/v1/sessions/unknown/push", origin: Self.allowed).status == 204)
    }

    @Test func aPreflightFromAnOriginNotAllowedIs403WithoutCORSHeaders() {
        let answer = client.send("OPTIONS", "/v1/sessions", headers: [("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST")])
        #expect(answer.status == 403)
        #expect(errorCode(answer.json) == "forbidden")
        #expect(!answer.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }

    @Test func aPreflightOnAnUnknownPathIs404() {
        #expect(preflight("/v1/nope", origin: Self.allowed).status == 404)
    }

    @Test func withoutCORSAPreflightIs403AndAnswersCarryNoCORSHeaders() {
        let plain = InProcessClient()
        let answer = plain.send("OPTIONS", "/v1/sessions", headers: [("Origin", Self.allowed), ("Access-Control-Request-Method", "POST")])
        #expect(answer.status == 403)
        let get = plain.send("GET", "/v1/app", headers: [("Origin", Self.allowed)])
        #expect(!get.headers.contains { $0.name.lowercased().hasPrefix("access-control-") || $0.name == "Vary" })
    }

    @Test func aStreamCarriesCORSHeaders() {
        let (id, auth) = client.createSession()
        let request = HTTPRequest(
            method: "GET", path: "/v1/sessions/\(id)/events", headers: [auth, ("Accept", "text/event-stream"), ("Origin", Self.allowed)],
            body: [], bodyExceedsLimit: false)
        guard case .stream(_, let headers, let stream) = client.api.reply(to: request) else {
            Issue.record("expected a stream")
            return
        }
        stream.finish()
        #expect(value("Access-Control-Allow-Origin", in: headers) == Self.allowed)
        #expect(value("Vary", in: headers) == "Origin")
    }

    @Test(arguments: ["https://app.example.com", "http://localhost:3000", "http://[::1]:8080", "HTTP://Example.COM:80"])
    func originsAreAccepted(origin: String) throws {
        _ = try CORSPolicy(origins: [origin])
    }

    @Test(arguments: ["*", "app.example.com", "https://app.example.com/", "https://app.example.com/path", "http://host:0", "http://host:x", "http://"])
    func nonOriginsAreRefused(text: String) {
        #expect(throws: CORSPolicy.InvalidOrigin.self) { try CORSPolicy(origins: [text]) }
    }

    @Test func aDefaultPortMatchesItsAbsence() {
        let policy = try! CORSPolicy(origins: ["https://app.example.com:443"])
        let request = HTTPRequest(method: "GET", path: "/", headers: [("Origin", "https://app.example.com")], body: [], bodyExceedsLimit: false)
        #expect(policy.headers(for: request).contains { $0.name == "Access-Control-Allow-Origin" })
    }
}
