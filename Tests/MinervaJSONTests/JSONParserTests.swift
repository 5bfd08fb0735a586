import Foundation
import MinervaJSON
import Testing

@Suite struct JSONParserTests {
    @Test(arguments: [
        (#"{"a": [1, -2.5, true, false, null, "x\n\u00e9\ud83d\ude00"]}"#,
         JSONValue.object(["a": [1, -2.5, true, false, nil, "x\né😀"]])),
        ("  0 ", JSONValue.int(0)),
        ("1e3", JSONValue.double(1000)),
        ("-0.0", JSONValue.double(-0.0)),
        (#""\/\\\"\b\f\r\t""#, JSONValue.string("/\\\"\u{08}\u{0C}\r\t")),
        ("[]", JSONValue.array([])),
        ("{}", JSONValue.object([:])),
        ("123456789012345678901234567890", JSONValue.double(1.2345678901234568e29)),
        ("[-0, 999999999999999999, -999999999999999999, 9223372036854775807, -9223372036854775808]",
         JSONValue.array([0, 999_999_999_999_999_999, -999_999_999_999_999_999, .int(Int.max), .int(Int.min)])),
        ("9223372036854775808", JSONValue.double(9_223_372_036_854_775_808)),
        ("\"é😀\u{FFFD}\"", JSONValue.string("é😀\u{FFFD}")),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"",
        "\"\\ud800\"", "{\"a\" 1}", "{1:2}", "[1 2]", "1 2", "\"\u{01}\"", "{\"a\":1,\"a\":2}", "1e999",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ])
    func refusesInvalidJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xC3, 0x22]) }
        // A truncated 4-byte sequence, which decoding would repair into one U+FFFD of the same length.
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xF0, 0x9F, 0x98, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0x61, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try JSONParser.parse(Array(text.utf8))
    }

    @Test func numbersCompareAsNumbersAndObjectsIgnoreKeyOrder() throws {
        #expect(try JSONParser.parse(Array("1".utf8)) == JSONParser.parse(Array("1.0".utf8)))
        #expect(try JSONParser.parse(Array(#"{"a":1,"b":2}"#.utf8)) == JSONParser.parse(Array(#"{"b":2.0,"a":1}"#.utf8)))
        #expect(JSONValue.int(1).hashValue == JSONValue.double(1).hashValue)
        #expect(JSONValue.int(1) != JSONValue.string("1"))
    }
}

@Suite struct JSONWriterTests {
    /// The writer's text read back by Foundation's parser gives the same value.
    @Test(arguments: [
        JSONValue.object(["text": "quote \" backslash \\ newline \n tab \t control \u{01} unicode é😀", "n": -12, "d": 0.1,
                          "list": [nil, true, false, [:], []]]),
        JSONValue.string(String(decoding: (0..<32).map { UInt8($0) }, as: UTF8.self)),
        JSONValue.double(1e300),
        JSONValue.array([.int(0), .int(7), .int(-1), .int(10), .int(1_000_000), .int(Int.max), .int(Int.min)]),
        JSONValue.array([["only": ["one": 1]], [:], ["a": 1, "b": 2]]),
        JSONValue.array(["", "plain run", "\"starts", "ends\\", "mid\u{1F}dle\"\"", "\n\n"]),
    ])
    func roundTripsThroughFoundation(value: JSONValue) throws {
        var writer = JSONWriter()
        writer.value(value)
        let foundation = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: [.fragmentsAllowed])
        let again = try JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed])
        #expect(try JSONParser.parse(Array(again)) == value)
        #expect(try JSONParser.parse(writer.bytes) == value)
    }

    @Test func writesIdsFromAPrefixAndANumber() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.string("n", 0)
        writer.string("n", 42)
        writer.string("v", -7)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"["n0","n42","v-7"]"#)
    }

    @Test func writesCompactTextWithSortedKeys() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("b", 1)
        writer.key("a")
        writer.value(["z": 1, "y": [true, nil]])
        writer.field("c", nil as String?)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"b":1,"a":{"y":[true,null],"z":1},"c":null}"#)
    }
}
