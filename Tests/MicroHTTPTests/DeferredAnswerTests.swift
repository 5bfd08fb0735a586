import Dispatch
import MicroHTTP
import Testing

/// Answers every request later, from another thread: with a response forwarded from a second
/// deferred (`/forward`), or with a stream (`/stream`), as work done off the HTTP threads does.
struct LaterResponder: HTTPResponder {
    func reply(to request: HTTPRequest) -> HTTPReply {
        let outer = HTTPDeferred(fallback: HTTPResponse(status: 503), headers: [("X-Outer", "1")])
        let path = request.path
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            switch path {
            case "/forward":
                let inner = HTTPDeferred(fallback: HTTPResponse(status: 503), headers: [("X-Inner", "1")])
                outer.complete(with: .deferred(inner))
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                    inner.complete(HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array("late".utf8)))
                }
            default:
                let stream = HTTPStream()
                outer.complete(with: .stream(status: 200, headers: [("Content-Type", "text/event-stream")], stream))
                _ = stream.send(Array("data: one\n\n".utf8))
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                    _ = stream.send(Array("data: two\n\n".utf8))
                    stream.finish()
                }
            }
        }
        return .deferred(outer)
    }
}

@Suite struct DeferredAnswerTests {
    @Test func aDeferredAnswersWithAnotherDeferredsLaterAnswer() throws {
        let server = try startServer(LaterResponder())
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("GET /forward HTTP/1.1\r\nHost: t\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.body == "late")
        // Each deferred adds its own header fields.
        #expect(answer.headers["x-inner"] == "1" && answer.headers["x-outer"] == "1")
    }

    @Test func aDeferredAnswersWithAStream() throws {
        let server = try startServer(LaterResponder())
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n")
        let text = try client.read(through: "\r\n0\r\n\r\n")
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.lowercased().contains("transfer-encoding: chunked") && text.lowercased().contains("x-outer: 1"))
        #expect(text.contains("data: one\n\n") && text.contains("data: two\n\n"))
    }
}
