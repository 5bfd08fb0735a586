import MinervaJSON
import Testing

@Suite struct JSONObjectReaderTests {
    static let keys: JSONKeys = ["name", "count", "ratio", "on", "tags", "any", "list", "map", "child", "children"]

    func reader(_ text: String, keys: JSONKeys = keys) throws -> JSONObjectReader {
        try JSONObjectReader(JSONParser.parse(Array(text.utf8)), keys: keys)
    }

    /// The description of the error `read` throws, or a failure when it throws none.
    func failure(_ text: String, keys: JSONKeys = keys, _ read: (JSONObjectReader) throws(JSONReadError) -> Void = { _ in }) throws -> JSONReadError? {
        let value = try JSONParser.parse(Array(text.utf8))
        do throws(JSONReadError) {
            try read(JSONObjectReader(value, keys: keys))
            Issue.record("accepted \(text)")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEachType() throws {
        let body = try reader(#"{"name": "a", "count": 2.0, "ratio": 3, "on": true, "tags": ["x", "y"], "any": [1, {}], "map": {"k": null}}"#)
        #expect(try body.string("name") == "a")
        #expect(try body.int("count") == 2)
        #expect(try body.double("ratio") == 3)
        #expect(try body.bool("on"))
        #expect(try body.strings("tags") == ["x", "y"])
        #expect(try body.array("any") == [1, [:]])
        #expect(try body.object("map") == ["k": nil])
        #expect(body.value("any") == [1, [:]])
        #expect(body.contains("name"))
        #expect(!body.contains("list"))
    }

    @Test func nullCountsAsAbsent() throws {
        let body = try reader(#"{"name": null, "count": null, "ratio": null, "on": null, "tags": null, "any": null, "map": null, "child": null}"#)
        #expect(try body.optionalString("name") == nil)
        #expect(try body.optionalInt("count") == nil)
        #expect(try body.optionalDouble("ratio") == nil)
        #expect(try body.optionalBool("on") == nil)
        #expect(try body.optionalStrings("tags") == nil)
        #expect(try body.optionalArray("any") == nil)
        #expect(try body.optionalObject("map") == nil)
        #expect(try body.optionalObject("child", keys: ["x"]) { _ in 1 } == nil)
        #expect(try body.optionalObjects("children", keys: ["x"]) { _ in 1 } == nil)
        #expect(body.value("any") == nil)
        #expect(!body.contains("name"))
        #expect(try failure(#"{"name": null}"#) { body throws(JSONReadError) in _ = try body.string("name") }?.description == "field 'name' is required")
    }

    @Test(arguments: [
        (#"{"name": 1}"#, "field 'name' must be a string, not number"),
        (#"{"count": 1.5}"#, "field 'count' must be an integer, not number"),
        (#"{"ratio": "1"}"#, "field 'ratio' must be a number, not string"),
        (#"{"on": "yes"}"#, "field 'on' must be a boolean, not string"),
        (#"{"tags": "x"}"#, "field 'tags' must be an array of strings, not string"),
        (#"{"tags": ["x", 2]}"#, "field 'tags[1]' must be a string, not number"),
        (#"{"any": {}}"#, "field 'any' must be an array, not object"),
        (#"{"map": []}"#, "field 'map' must be an object, not array"),
        (#"{"child": true}"#, "field 'child' must be an object, not boolean"),
        (#"{"children": {}}"#, "field 'children' must be an array, not object"),
        (#"{"children": [{}, 3]}"#, "field 'children[1]' must be an object, not number"),
    ])
    func wrongTypesNameTheMember(text: String, expected: String) throws {
        let error = try failure(text) { body throws(JSONReadError) in
            _ = try body.optionalString("name")
            _ = try body.optionalInt("count")
            _ = try body.optionalDouble("ratio")
            _ = try body.optionalBool("on")
            _ = try body.optionalStrings("tags")
            _ = try body.optionalArray("any")
            _ = try body.optionalObject("map")
            _ = try body.optionalObject("child", keys: []) { _ in () }
            _ = try body.optionalObjects("children", keys: []) { _ in () }
        }
        #expect(error?.description == expected)
    }

    @Test func theDocumentMustBeAnObject() throws {
        let error = try failure("[1]")
        #expect(error?.description == "the JSON value must be an object, not array")
        #expect(error?.path == "")
        #expect(error?.reason == "must be an object, not array")
    }

    @Test func nestedErrorsCarryTheirPath() throws {
        let text = #"{"children": [{"items": []}, {"items": [{"id": "a"}, {"id": "b"}, {"id": 7}]}]}"#
        let error = try failure(text) { body throws(JSONReadError) in
            _ = try body.objects("children", keys: ["items"]) { child throws(JSONReadError) in
                try child.objects("items", keys: ["id"]) { item throws(JSONReadError) in try item.string("id") }
            }
        }
        #expect(error?.path == "children[1].items[2].id")
        #expect(error?.reason == "must be a string, not number")
        #expect(error?.description == "field 'children[1].items[2].id' must be a string, not number")
    }

    @Test func membersAndObjectsPrefixTheirErrors() throws {
        let missing = try failure(#"{"map": {"b": {}, "a": {"x": 1}}}"#) { body throws(JSONReadError) in
            _ = try body.members("map", keys: ["x"]) { member throws(JSONReadError) in try member.string("x") }
        }
        #expect(missing?.description == "field 'map.a.x' must be a string, not number")
        let custom = try failure(#"{"child": {"list": [1, 2]}}"#) { body throws(JSONReadError) in
            try body.object("child", keys: ["list"]) { child throws(JSONReadError) in throw child.error("is listed twice", at: "list", 1) }
        }
        #expect(custom?.path == "child.list[1]")
        #expect(custom?.description == "field 'child.list[1]': is listed twice")
        let absent = try failure("{}") { body throws(JSONReadError) in _ = try body.object("child", keys: []) { _ in () } }
        #expect(absent?.description == "field 'child' is required")
        let whole = try failure("{}") { body throws(JSONReadError) in throw body.error("give either 'a' or 'b'") }
        #expect(whole?.description == "give either 'a' or 'b'")
    }

    @Test func readsMembersByName() throws {
        let body = try reader(#"{"map": {"b": {"x": "2"}, "a": {"x": "1"}}}"#)
        #expect(try body.members("map", keys: ["x"]) { member throws(JSONReadError) in try member.string("x") } == ["a": "1", "b": "2"])
    }

    @Test(arguments: [
        (#"{"to_root": true}"#, "unknown field 'to_root'; did you mean 'toRoot'?"),
        (#"{"TOROOT": true}"#, "unknown field 'TOROOT'; did you mean 'toRoot'?"),
        (#"{"to-root": true}"#, "unknown field 'to-root'; did you mean 'toRoot'?"),
        (#"{"nodeId": "n4"}"#, "unknown field 'nodeId'; did you mean 'node'?"),
        (#"{"navigatr": "v0"}"#, "unknown field 'navigatr'; did you mean 'navigator'?"),
        (#"{"tO": "n1"}"#, "unknown field 'tO'; did you mean 'to'?"),
        (#"{"ot": "n1"}"#, "unknown field 'ot'; did you mean 'to'?"),
        (#"{"zebra": 1}"#, "unknown field 'zebra'; the known fields are 'navigator', 'to', 'toRoot', 'node'"),
        (#"{"to_root": null}"#, "unknown field 'to_root'; did you mean 'toRoot'?"),
        (#"{"zz": 1, "b": 1, "toRoot": true}"#, "unknown field 'b'; the known fields are 'navigator', 'to', 'toRoot', 'node'"),
    ])
    func unknownMembersAreRefusedWithTheNearestName(text: String, expected: String) throws {
        let error = try failure(text, keys: ["navigator", "to", "toRoot", "node"])
        #expect(error?.description == expected)
    }

    @Test func unknownMembersOfNestedObjectsNameTheirPath() throws {
        let error = try failure(#"{"children": [{"id": "a"}, {"id": "b", "knd": "row"}]}"#) { body throws(JSONReadError) in
            _ = try body.objects("children", keys: ["id", "kind", "content"]) { _ in () }
        }
        #expect(error?.path == "children[1].knd")
        #expect(error?.reason == "unknown field; did you mean 'kind'?")
        #expect(error?.description == "unknown field 'children[1].knd'; did you mean 'kind'?")
        #expect(try failure(#"{"x": 1}"#, keys: [])?.description == "unknown field 'x'; this object takes no fields")
    }

    @Test func messagesBoundAndEscapeClientKeys() throws {
        let long = String(repeating: "k", count: 100)
        let error = try failure(#"{"\#(long)\n": 1}"#, keys: ["name"])
        #expect(error?.description == "unknown field '\(String(repeating: "k", count: 64))…'; the known fields are 'name'")
        let control = try failure(#"{"a\u0001": 1}"#, keys: ["a"])
        #expect(control?.description == #"unknown field 'a\u{01}'; did you mean 'a'?"#)
    }

    @Test(arguments: [
        ("presentaton", "presentation"), ("embedInNavigaton", "embedInNavigation"), ("Screen", "screen"), ("scren", "screen"),
        ("param", "params"), ("prams", "params"), ("styel", "style"), ("stack", nil), ("title", nil), ("x", nil),
    ] as [(String, String?)])
    func suggestsOnlyCloseNames(typed: String, expected: String?) throws {
        let error = try failure(#"{"\#(typed)": 1}"#, keys: ["screen", "params", "presentation", "style", "embedInNavigation"])
        if let expected {
            #expect(error?.reason == "unknown field; did you mean '\(expected)'?")
        } else {
            #expect(error?.reason.hasPrefix("unknown field; the known fields are") == true, "\(String(describing: error))")
        }
    }
}
