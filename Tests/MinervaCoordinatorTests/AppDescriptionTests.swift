@testable import MinervaCoordinator
import Testing

@Suite struct AppDescriptionTests {
    func parse(_ text: String) throws(AppDescriptionError) -> AppDescription {
        try AppDescription.parse(Array(text.utf8), source: "app.json")
    }

    @Test func theDemoAppIsAnAppOfRootFlows() {
        let demo = AppDescription.demo
        #expect(demo.declaresFlows && demo.flowOrder == ["auth", "main", "onboarding"])
        #expect(demo.launchFlow(for: []) == "onboarding" && demo.launchFlow(for: ["onboarded"]) == "auth")
        #expect(demo.launchFlow(for: ["onboarded", "signedIn"]) == "main")
        #expect(demo.flows["main"]?.root.tabs?.map(\.id) == ["home", "account"])
        #expect(demo.screens["settings"]?.guarded?.otherwise == "verify")
        #expect(Set(demo.routes.map(\.flow)) == ["onboarding", "auth", "main"])
        #expect(demo.screens["photo"]?.style == .fullScreen && demo.screens["profile"]?.params == ["userId"])
        #expect(demo.unshowableRoutes().isEmpty)
    }

    @Test(arguments: [
        ("[]", "app.json: must be an object, not array"),
        ("{", "app.json: not valid JSON"),
        (#"{"root": {"screen": "a"}}"#, "app.json: screens: is required"),
        (#"{"root": {"screen": "a"}, "screens": {}}"#, "app.json: screens: must declare at least one screen"),
        (#"{"root": {"screen": "b"}, "screens": {"a": {}}}"#, "app.json: root.screen: 'b' is not declared in screens"),
        (#"{"screens": {"a": {}}}"#, "app.json: root: is required"),
        (#"{"root": {"screen": "a"}, "screens": {"a": {"style": "big"}}}"#, "app.json: screens.a.style: 'big' is not one of"),
        (#"{"root": {"screen": "a"}, "screens": {"a": {"presentation": 3}}}"#, "app.json: screens.a.presentation: must be a string"),
        (#"{"root": {"screen": "a"}, "screens": {"a": {"params": ["x", "x"]}}}"#, "app.json: screens.a.params[1]: 'x' is listed twice"),
        (#"{"root": {"screen": "a"}, "screens": {"a": {"params": ["x"]}}}"#, "app.json: root.screen: 'a' requires params"),
        (#"{"root": {"screen": "a"}, "screens": {"a": {"embedInNavigation": "yes"}}}"#, "app.json: screens.a.embedInNavigation: must be a boolean"),
    ])
    func invalidDescriptionsNameFileAndKey(text: String, expected: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
        }
    }

    @Test(arguments: [
        (#"{"root": {"screen": "a"}, "screens": {"a": {"presentaton": "present"}}}"#, "screens.a.presentaton",
         "unknown field; did you mean 'presentation'?"),
        (#"{"extra": 1, "root": {"screen": "a"}, "screens": {"a": {}}}"#, "extra",
         "unknown field; the known fields are '$schema', 'name', 'scheme', 'hosts', 'root', 'flows', 'launch', 'screens', 'routes', 'experiments'"),
    ])
    func unknownKeysAreRefusedWithTheNearestKnownOne(text: String, key: String, message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.key == key)
            #expect(error.message == message)
        }
    }

    @Test func aSchemaReferenceIsAllowed() throws {
        let app = try parse(#"{"$schema": "./app-description.schema.json", "root": {"screen": "a"}, "screens": {"a": {"title": "A"}}}"#)
        #expect(app.screens["a"]?.title == "A")
    }

    @Test func nullMeansAbsent() throws {
        let app = try parse(#"{"name": null, "root": {"screen": "a", "tabs": null}, "screens": {"a": {"style": null, "otherwise": null}}, "routes": null}"#)
        #expect(app.name == "app")
        #expect(app.root == .screen("a"))
        #expect(app.screens["a"]?.style == nil)
    }

    /// A sample list is kept as written, its cells' `navigate` read out, and written back with
    /// each cell's content in its canonical form (as a list keeps it).
    @Test func aSampleListIsReadAndWrittenBack() throws {
        let app = try parse(
            #"""
            {"root": {"screen": "a"},
             "screens": {"a": {"sampleList": {"sections": [{"id": "s", "items": [
                                 {"id": "c1", "kind": "link", "content": {"title": "B", "rank": 1.0, "navigate": {"screen": "b", "params": {"id": "7"}}}},
                                 {"id": "c2", "kind": "note"}]}]}},
                         "b": {"params": ["id"], "sampleList": {"sections": [{"id": "t", "items": [
                                 {"id": "c3", "kind": "link", "content": {"navigate": {"screen": "b", "params": {"id": ":id"}}}}]}]}}}}
            """#)
        let cells = app.screens["a"]?.sampleList?.sections.flatMap(\.items) ?? []
        #expect(cells.map(\.id) == ["c1", "c2"] && cells[1].content == .null)
        #expect(cells[0].navigate == AppDescription.SampleList.Target(screen: "b", params: ["id": .string("7")]))
        #expect(app.screens["b"]?.sampleList?.sections[0].items[0].navigate?.params == ["id": .string(":id")])
        let document = String(decoding: app.document(version: nil), as: UTF8.self)
        #expect(document.contains(#""content":{"navigate":{"params":{"id":"7"},"screen":"b"},"rank":1,"title":"B"}"#), "\(document)")
        #expect(try AppDescription.parse(app.document(version: nil), source: "stored") == app)
    }

    /// Stores keep each app version as its canonical document: reading it back gives the app.
    @Test func theCanonicalDocumentReadsBackToTheSameApp() throws {
        let guarded = try parse(
            #"""
            {"root": {"screen": "a"},
             "screens": {"a": {}, "b": {"presentation": "present", "style": "formSheet", "params": ["id"], "title": "B",
                                    "requires": "in", "otherwise": {"screen": "c", "params": {"next": "b"}}},
                         "c": {"presentation": "present", "embedInNavigation": true}},
             "routes": [{"path": "/b/:id", "steps": [{"screen": "b", "params": {"id": ":id"}, "style": "pageSheet"}]}]}
            """#)
        for app in [AppDescription.demo, .basic, guarded] {
            let document = app.document(version: nil)
            #expect(try AppDescription.parse(document, source: "stored") == app)
            #expect(try AppDescription.parse(document, source: "stored").document(version: nil) == document)
        }
    }
}
