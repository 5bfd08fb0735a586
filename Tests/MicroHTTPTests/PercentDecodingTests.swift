import MicroHTTP
import Testing

@Suite struct PercentDecodingTests {
    @Test(arguments: [
        ("/a%20b", "/a b"), ("/%C3%A9t%c3%a9", "/été"), ("/plain", "/plain"), ("", ""),
        // decoded once: an escaped '%' stays a '%'
        ("/%2500", "/%00"), ("/%3F", "/?"), ("/a+b", "/a+b"),
    ])
    func decodesEscapesOnce(sent: String, decoded: String) throws {
        #expect(try PercentDecoding.decode(Array(sent.utf8)) == decoded)
    }

    @Test(arguments: [
        ("/a%00", PercentDecoding.Failure.nul), ("/a\u{0}b", .nul), ("%zz", .badEscape), ("/%2", .badEscape), ("/%", .badEscape),
        ("/%g0", .badEscape), ("/%ff", .notUTF8), ("/%C3", .notUTF8), ("/%ED%A0%80", .notUTF8),
    ])
    func refusesWhatCannotBeDecoded(sent: String, failure: PercentDecoding.Failure) {
        #expect(throws: failure) { try PercentDecoding.decode(Array(sent.utf8)) }
    }
}
