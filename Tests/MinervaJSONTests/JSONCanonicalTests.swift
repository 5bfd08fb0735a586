import MinervaJSON
import Testing
import TestSupport

/// Random values from small pools of numbers, strings and keys, rich in spellings that `==`
/// treats as one: integers and integral doubles, `-0.0`, the edges of exact `Double`
/// integers and of `Int`; and strings that differ only in Unicode normalisation, which `==`
/// also treats as one but JSON does not.
struct ValueGenerator {
    var random: SeededGenerator

    static let numbers: [JSONValue] = [
        .int(0), .int(1), .int(-1), .int(2), .int(1 << 53 - 1), .int(1 << 53), .int(1 << 53 + 1), .int(Int.max), .int(Int.min),
        .int(-(1 << 53)), .double(0), .double(-0.0), .double(1), .double(-1), .double(2), .double(0.5), .double(0.1),
        .double(Double(1 << 53)), .double(Double(1 << 53) + 2), .double(9_223_372_036_854_775_808.0), .double(-9_223_372_036_854_775_808.0),
        .double(1e20), .double(1e300), .double(-1e-7), .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
    ]
    /// Equal strings in several spellings: precomposed and decomposed é, Å and the
    /// Ångström sign, K and the Kelvin sign; and strings that need escaping.
    static let strings: [String] = [
        "", "a", "b", "A", "K", "\u{212A}", "\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}", "\u{212B}", "quote \" and \\",
        "line\nfeed\u{01}", "😀", "caf\u{E9}", "cafe\u{301}", "1",
    ]
    static let keys: [String] = ["a", "b", "c", "K", "\u{212A}", "\u{E9}", "e\u{301}", "z", "\u{C5}", "A\u{30A}", ""]

    mutating func value(depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 3 ? 8 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return Self.numbers.randomElement(using: &random)!
        case 3, 4: return .string(Self.strings.randomElement(using: &random)!)
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[Self.keys.randomElement(using: &random)!] = value(depth: depth + 1)
            }
            return .object(members)
        }
    }

    /// The same value spelled differently: integers as doubles and back where exact, objects
    /// rebuilt (so their storage order differs).
    mutating func respelling(_ value: JSONValue) -> JSONValue {
        switch value {
        case .int(let number):
            if let exact = Double(exactly: number), Bool.random(using: &random) { return .double(exact) }
            return value
        case .double(let number):
            if let exact = Int(exactly: number), Bool.random(using: &random) { return .int(exact) }
            if number == 0, Bool.random(using: &random) { return .double(-number) }
            return value
        case .array(let elements): return .array(elements.map { respelling($0) })
        case .object(let members):
            var respelled: [String: JSONValue] = [:]
            for (key, member) in members.shuffled(using: &random) { respelled[key] = respelling(member) }
            return .object(respelled)
        default: return value
        }
    }

    /// The value with one leaf replaced at random (which may or may not change it).
    mutating func mutating(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            var changed = elements
            let index = Int.random(in: changed.indices, using: &random)
            changed[index] = mutating(changed[index])
            return .array(changed)
        case .object(let members) where !members.isEmpty:
            var changed = members
            let key = members.keys.randomElement(using: &random)!
            changed[key] = mutating(members[key]!)
            return .object(changed)
        default:
            return Self.numbers.randomElement(using: &random)!
        }
    }
}

/// Equality as JSON (RFC 8259) has it: numbers by value, as `==` compares them; strings and
/// object keys by their UTF-8, where `==` compares Unicode-equivalent text as equal.
func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
    case (.object(let x), .object(let y)):
        let left = Dictionary(uniqueKeysWithValues: x.map { (Array($0.key.utf8), $0.value) })
        let right = Dictionary(uniqueKeysWithValues: y.map { (Array($0.key.utf8), $0.value) })
        return left.count == right.count && left.allSatisfy { key, value in right[key].map { sameJSON(value, $0) } ?? false }
    case (.string, _), (_, .string), (.array, _), (_, .array), (.object, _), (_, .object): return false
    default: return a == b
    }
}

@Suite struct JSONCanonicalTests {
    func canonical(_ text: String) throws -> String {
        String(decoding: try JSONParser.parse(Array(text.utf8)).canonicalJSON, as: UTF8.self)
    }

    @Test(arguments: [
        (#"{"b": [1.0, 1e2, -0.0, 0.5], "a": 1}"#, #"{"a":1,"b":[1,100,0,0.5]}"#),
        ("9007199254740993", "9007199254740993"),
        ("9007199254740993.0", "9007199254740992"),
        ("9223372036854775807", "9223372036854775807"),
        ("9223372036854775807.0", "9.223372036854776e+18"),
        ("100000000000000000000", "1e+20"),
        ("-9223372036854775808.0", "-9223372036854775808"),
        ("1E-7", "1e-07"),
        (#""caf\u00e9""#, "\"caf\u{E9}\""),
        ("\"cafe\u{301}\"", "\"cafe\u{301}\""),
        (#"{"\u212a": "\/", "Z": "\u0001"}"#, "{\"\u{212A}\":\"/\",\"Z\":\"\\u0001\"}"),
    ])
    func writesOneSpellingPerValue(text: String, expected: String) throws {
        #expect(try canonical(text) == expected)
    }

    @Test(arguments: [
        ("1", "1.0", true), ("1", "1e0", true), ("0", "-0.0", true), (#"{"a":1,"b":2}"#, #"{"b":2.0,"a":1}"#, true),
        ("9007199254740992", "9007199254740992.0", true), ("9007199254740993", "9007199254740993.0", false),
        ("9223372036854775807", "9223372036854775807.0", false), ("100000000000000000000", "1e20", true),
        (#""\u00e9""#, "\"e\u{301}\"", false), (#"{"\u00c5":1}"#, "{\"\u{212B}\":1}", false), ("1", #""1""#, false),
        ("[1,2]", "[2,1]", false), ("0.1", "0.10000000000000001", true), ("0.1", "0.1000000000000001", false),
    ])
    func equalTextExactlyWhenEqualValues(left: String, right: String, equal: Bool) throws {
        let a = try JSONParser.parse(Array(left.utf8))
        let b = try JSONParser.parse(Array(right.utf8))
        #expect(sameJSON(a, b) == equal)
        #expect((a.canonicalJSON == b.canonicalJSON) == equal)
    }

    /// Canonical texts are equal exactly when the values are equal as JSON, on values rich in
    /// spellings that `==` does not tell apart; the text reads back as the same value and is its
    /// own canonical text.
    @Test(arguments: 0..<8)
    func equalTextIffEqualValues(seed: Int) throws {
        var generator = ValueGenerator(random: SeededGenerator(state: UInt64(seed) &* 104_729 &+ 1))
        var equalPairs = 0
        var unequalPairs = 0
        for _ in 0..<1_000 {
            let a = generator.value()
            let b: JSONValue
            switch Int.random(in: 0..<3, using: &generator.random) {
            case 0: b = generator.respelling(a)
            case 1: b = generator.mutating(generator.respelling(a))
            default: b = generator.value()
            }
            let textA = a.canonicalJSON
            let textB = b.canonicalJSON
            #expect((textA == textB) == sameJSON(a, b), "\(a) vs \(b): \(String(decoding: textA, as: UTF8.self)) vs \(String(decoding: textB, as: UTF8.self))")
            if sameJSON(a, b) { equalPairs += 1 } else { unequalPairs += 1 }
            let readBack = try JSONParser.parse(textA, maximumDepth: .max)
            #expect(sameJSON(readBack, a))
            #expect(readBack.canonicalJSON == textA)
        }
        #expect(equalPairs > 300 && unequalPairs > 300)
    }

    @Test func writesRawJSONAsAValue() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.json(Array(#"{"a":1}"#.utf8))
        writer.json(Array("[]".utf8))
        writer.int(2)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{"a":1},[],2]"#)
    }
}
