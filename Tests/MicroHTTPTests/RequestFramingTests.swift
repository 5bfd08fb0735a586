@testable import MicroHTTP
import Testing

@Suite struct RequestFramingTests {
    private static let host = ("host", "example.org")

    @Test func acceptsASoundHeaderBlock() {
        #expect(RequestFraming.problem(version: "HTTP/1.1", headers: [Self.host, ("content-length", "5"), ("x-a", "a\tb")]) == nil)
        #expect(RequestFraming.problem(version: "HTTP/1.1", headers: [Self.host, ("transfer-encoding", "Chunked")]) == nil)
        #expect(RequestFraming.problem(version: "HTTP/1.1", headers: [Self.host, ("content-length", "5"), ("content-length", "5")]) == nil)
        #expect(RequestFraming.problem(version: "HTTP/1.0", headers: []) == nil)
    }

    @Test(arguments: [
        ("HTTP/1.1", [("content-length", "5")], "Host"),
        ("HTTP/1.1", [host, host], "2 Host"),
        ("HTTP/1.1", [host, ("content-length", "5"), ("content-length", "6")], "differing Content-Length"),
        ("HTTP/1.1", [host, ("content-length", "5"), ("transfer-encoding", "chunked")], "both Transfer-Encoding and Content-Length"),
        ("HTTP/1.1", [host, ("transfer-encoding", "gzip, chunked")], "only Transfer-Encoding accepted"),
        ("HTTP/1.1", [host, ("transfer-encoding", "chunked"), ("transfer-encoding", "chunked")], "only Transfer-Encoding accepted"),
        ("HTTP/1.0", [("transfer-encoding", "chunked")], "HTTP/1.0"),
        ("HTTP/1.1", [host, ("authorization", "Bearer t\u{0}junk")], "NUL byte"),
        ("HTTP/1.1", [host, ("x-a", "a\u{1}b")], "control character"),
        ("HTTP/1.1", [host, ("x-a ", "b")], "whitespace before its colon"),
    ])
    func refusesAmbiguousOrHostileBlocks(version: String, headers: [(String, String)], message: String) throws {
        let problem = try #require(RequestFraming.problem(version: version, headers: headers.map { (name: $0.0, value: $0.1) }))
        #expect(problem.contains(message))
    }
}
