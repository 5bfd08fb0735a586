import MinervaJSON
@testable import MinervaServer
import Testing

/// Small mistakes answered with what to do: an unquoted entity tag, a trailing slash, a deep
/// link with another scheme.
@Suite struct GuidingErrorsTests {
    let client = InProcessClient()

    private func message(_ json: JSONValue?) -> String {
        json?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? ""
    }

    @Test func anUnquotedIfMatchIs400SayingToQuoteIt() {
        let (id, auth) = client.createSession()
        let push = client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth, ("If-Match", "1")])
        #expect(push.status == 400)
        #expect(message(push.json).contains(#"send If-Match: "1""#))
        let listed = client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth, ("If-Match", #""1", 2"#)])
        #expect(listed.status == 400)
        #expect(client.send("DELETE", "/v1/sessions/\(id)", headers: [auth, ("If-Match", "1")]).status == 400)
        #expect(client.send("DELETE", "/v1/sessions/\(id)", headers: [auth, ("If-Match", "")]).status == 400)
        let get = client.send("GET", "/v1/sessions/\(id)", headers: [auth, ("If-None-Match", "1")])
        #expect(get.status == 400)
        #expect(message(get.json).contains(#"send If-None-Match: "1""#))
        #expect(client.send("GET", "/v1/sessions/\(id)", headers: [auth, ("If-None-Match", #"W/"1""#)]).status == 304)
        // the session did not change
        #expect(client.send("GET", "/v1/sessions/\(id)", headers: [auth, ("If-None-Match", #""1""#)]).status == 304)
    }

    @Test(arguments: [#""3""#, #"W/"3""#, #" "1" , W/"3" "#, #""a,b", "3""#, "*", #""1",*"#, #","3","#])
    func entityTagListsAreRead(header: String) throws {
        #expect(try IfMatch(header, name: "If-Match").matches(version: 3))
    }

    @Test(arguments: [("3", "'3'"), (#""1", 3"#, "'3'"), (#""3"x"#, #"'"3"x'"#), ("W/3", "'W/3'"), (#""3"#, #"'"3'"#), ("*x", "'*x'")])
    func elementsThatAreNotEntityTagsAreNamed(header: String, named: String) {
        #expect(throws: APIError.self) { try IfMatch(header, name: "If-Match") }
        do {
            _ = try IfMatch(header, name: "If-Match")
        } catch {
            #expect(error.message.hasPrefix("If-Match \(named) is not an entity tag"))
        }
    }

    @Test func anUnquotedIfMatchKeepsTheContractsOrder() {
        let (id, auth) = client.createSession()
        #expect(client.send("PATCH", "/v1/sessions/\(id)/push", headers: [auth, ("If-Match", "1")]).status == 405)
        #expect(client.send("POST", "/v1/sessions/\(id)/push", "{", headers: [auth, ("If-Match", "1")], tooLarge: true).status == 413)
    }

    @Test func aTrailingSlashIsNamedAsTheMistake() {
        let answer = client.send("POST", "/v1/sessions/")
        #expect(answer.status == 404)
        #expect(message(answer.json) == "no such path: '/v1/sessions/'; paths have no trailing slash — try '/v1/sessions'")
        #expect(message(client.send("GET", "/v1/nope/").json) == "no such path: '/v1/nope/'")
        #expect(message(client.send("GET", "/v1/sessions/a/push/").json).contains("try '/v1/sessions/a/push'"))
    }

    @Test func aDeepLinkWithAnotherSchemeNamesTheAppsScheme() {
        let created = client.send("POST", "/v1/sessions", #"{"deepLink": "other://users/1"}"#)
        #expect(created.status == 404)
        #expect(message(created.json).contains("this app's scheme is 'tabs' (try 'tabs://users/1')"))
        #expect(client.api.core.sessionCount == 0)
        let (id, auth) = client.createSession()
        let linked = client.send("POST", "/v1/sessions/\(id)/deep-link", #"{"url": "other://users/1"}"#, headers: [auth])
        #expect(linked.status == 404)
        #expect(message(linked.json).contains("this app's scheme is 'tabs'"))
        let bare = client.send("POST", "/v1/sessions/\(id)/deep-link", #"{"url": "users/1"}"#, headers: [auth])
        #expect(message(bare.json).contains("try '/users/1'"))
        #expect(client.send("POST", "/v1/sessions/\(id)/deep-link", #"{"url": "TABS://users/1"}"#, headers: [auth]).status == 200)
    }
}
