import MinervaJSON
import MinervaList
import MinervaModel
import MinervaSessions
@testable import MinervaServer
import Testing

/// Request bodies carry only the fields of their operation: any other is `400`, naming it.
@Suite struct BodyStrictnessTests {
    func refusal(_ operation: NavigationOperation, _ body: String) -> APIError? {
        do throws(APIError) {
            _ = try SessionCommand(operation, bytes: Array(body.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (NavigationOperation.push, #"{"screen": "home", "param": {"a": 1}}"#, "unknown field 'param'; did you mean 'params'?"),
        (.present, #"{"screen": "login", "embedInNavigaton": true}"#, "unknown field 'embedInNavigaton'; did you mean 'embedInNavigation'?"),
        (.dismiss, #"{"nodeId": "n4"}"#, "unknown field 'nodeId'; did you mean 'node'?"),
        (.pop, #"{"to_root": true}"#, "unknown field 'to_root'; did you mean 'toRoot'?"),
        (.setRoot, #"{"screen": "home", "navigatr": "v0"}"#, "unknown field 'navigatr'; did you mean 'navigator'?"),
        (.setRoot, #"{"stack": [{"screen": "home"}, {"screen": "profile", "Params": {}}]}"#, "unknown field 'stack[1].Params'; did you mean 'params'?"),
        (.navigate, #"{"form": "n1", "screen": "home"}"#, "unknown field 'form'; did you mean 'from'?"),
        (.deepLink, #"{"URL": "/users/1"}"#, "unknown field 'URL'; did you mean 'url'?"),
        (.finish, #"{"node": "n3", "result": {"status": "success", "valu": 1}}"#, "unknown field 'result.valu'; did you mean 'value'?"),
        (.selectTab, #"{"tab": "home", "animated": true}"#, "unknown field 'animated'; the known fields are 'tab', 'dismiss'"),
        (.flags, #"{"sets": ["signedIn"]}"#, "unknown field 'sets'; did you mean 'set'?"),
    ])
    func unknownFieldsAreRefused(operation: NavigationOperation, body: String, message: String) {
        #expect(refusal(operation, body) == .invalidRequest(message))
    }

    @Test(arguments: [
        (NavigationOperation.push, #"{"from": "n1", "screen": "home", "params": {"any": {"thing": [1]}}}"#),
        (.present, #"{"from": null, "screen": "login", "params": {}, "style": "formSheet", "embedInNavigation": true}"#),
        (.dismiss, ""), (.dismiss, #"{"node": "n4"}"#),
        (.pop, "{}"), (.pop, #"{"navigator": "v0", "to": "n1", "toRoot": null}"#),
        (.setRoot, #"{"navigator": "v0", "screen": "home", "params": {}}"#),
        (.setRoot, #"{"stack": [{"screen": "home"}, {"screen": "profile", "params": {"userId": "1"}}]}"#),
        (.navigate, #"{"screen": "home"}"#), (.deepLink, #"{"url": "/users/1"}"#),
        (.finish, #"{"node": "n3", "result": {"status": "success", "value": {"free": "form"}}}"#),
        (.selectTab, #"{"tab": "home"}"#), (.flags, #"{"set": ["a"], "clear": []}"#),
    ])
    func knownFieldsAreRead(operation: NavigationOperation, body: String) {
        #expect(refusal(operation, body) == nil)
    }

    @Test(arguments: [
        (NavigationOperation.push, #"{"screen": 1}"#, "field 'screen' must be a string, not number"),
        (.push, "", "a JSON object body is required"),
        (.pop, "[]", "the body must be a JSON object, not array"),
        (.setRoot, "{}", "field 'screen' or 'stack' is required"),
        (.setRoot, #"{"screen": "home", "stack": []}"#, "give either 'stack' or 'screen' (with its 'params'), not both"),
        (.setRoot, #"{"stack": [{"screen": "home"}, "profile"]}"#, "field 'stack[1]' must be an object, not string"),
        (.finish, #"{"node": "n3", "result": {}}"#, "field 'result.status' is required"),
        (.flags, #"{"set": ["a", 2]}"#, "field 'set[1]' must be a string, not number"),
    ])
    func wrongShapesNameTheField(operation: NavigationOperation, body: String, message: String) {
        #expect(refusal(operation, body) == .invalidRequest(message))
    }

    func listRefusal(_ body: String) -> APIError? {
        do {
            _ = try SessionCommand(.list, node: "n1", bytes: Array(body.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"sections": [], "version": 3}"#, "unknown field 'version'; the known fields are 'sections'"),
        (#"{"sections": [{"id": "a", "items": [], "title": "A"}]}"#, "unknown field 'sections[0].title'; the known fields are 'id', 'items'"),
        (#"{"sections": [{"id": "a", "items": [{"id": "1", "kind": "row"}, {"id": "2", "kind": "row", "contents": {}}]}]}"#,
         "unknown field 'sections[0].items[1].contents'; did you mean 'content'?"),
        (#"{"sections": [{"id": "a", "items": [{"id": "1", "kind": 2}]}]}"#, "field 'sections[0].items[0].kind' must be a string, not number"),
        (#"{"sections": [{"id": "a"}]}"#, "field 'sections[0].items' is required"),
    ])
    func listBodiesRefuseUnknownFieldsAtEveryLevel(body: String, message: String) {
        #expect(listRefusal(body) == .invalidRequest(message))
    }

    @Test func listContentIsFreeForm() throws {
        let command = try SessionCommand(
            .list, node: "n1", bytes: Array(#"{"sections": [{"id": "a", "items": [{"id": "1", "kind": "row", "content": {"anything": {"at": [1, {"all": null}]}}}, {"id": "2", "kind": "row"}]}]}"#.utf8))
        guard case .putList(_, let sections) = command else {
            Issue.record("read as \(command)")
            return
        }
        #expect(sections.map(\.id) == ["a"])
        #expect(sections[0].items.map(\.id) == ["1", "2"])
        #expect(sections[0].items[1].content == CellContent(JSONValue.null))
    }

    @Test func anUnknownFieldChangesNothing() {
        let client = InProcessClient()
        let (id, auth) = client.createSession()
        #expect(client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth]).status == 200)
        let before = client.send("GET", "/v1/sessions/\(id)", headers: [auth]).json
        let refused = client.send("POST", "/v1/sessions/\(id)/pop", #"{"to_root": true}"#, headers: [auth])
        #expect(refused.status == 400)
        #expect(errorCode(refused.json) == "invalid_request")
        #expect(client.send("GET", "/v1/sessions/\(id)", headers: [auth]).json == before)
    }
}
