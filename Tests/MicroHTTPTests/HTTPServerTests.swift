import Foundation
import Locking
import MicroHTTP
import Synchronization
import Testing

/// Answers with what it received, so tests can see exactly what the server passed on.
struct EchoResponder: HTTPResponder {
    let delay: Duration

    init(delay: Duration = .zero) {
        self.delay = delay
    }

    func reply(to request: HTTPRequest) -> HTTPReply {
        .response(respond(to: request))
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18) }
        if let malformation = request.malformation { return HTTPResponse(status: 400, body: Array(malformation.utf8)) }
        if request.bodyExceedsLimit { return HTTPResponse(status: 413, body: Array("too large".utf8)) }
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let text = "\(request.method) \(request.path) ?\(query) x-test=\(request.header("x-test") ?? "-") body=\(request.body.count)"
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain"), ("X-Echo", "1")], body: Array(text.utf8))
    }
}

func startServer(_ responder: any HTTPResponder = EchoResponder(), maxBody: Int = 1024) throws -> HTTPServer {
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, maxBodySize: maxBody), responder: responder)
    try server.start()
    return server
}

@Suite struct HTTPServerTests {
    @Test func bindsAFreePortAndAnswers() throws {
        let server = try startServer()
        defer { server.shutdown() }
        #expect(server.port > 0)
        let client = try RawClient(port: server.port)
        client.send("GET /a/b%20c?x=1&flag HTTP/1.1\r\nHost: t\r\nX-Test: yes\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 200)
        #expect(answer.headers["x-echo"] == "1")
        #expect(answer.body == "GET /a/b c ?x=1&flag= x-test=yes body=0")
    }

    @Test func refusesAMalformedRequestBeforeItsBodyAndCloses() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("POST /a%00b HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 400)
        #expect(answer.body == "the path contains a NUL byte (%00)")
        #expect(client.isClosedByPeer())
    }

    @Test func cutsOffARequestThatTricklesPastTheDeadline() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, requestTimeout: 1), responder: EchoResponder())
        try server.start()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        var ticks = 0
        // a byte every 0.1 s keeps the idle timeout from firing, but not the 1 s deadline
        while client.isOpen(), ticks < 100 {
            client.send("a")
            Thread.sleep(forTimeInterval: 0.1)
            ticks += 1
        }
        #expect(ticks < 100)
    }

    /// The server's own limits, in libmicrohttpd's accept policy across its two workers: a full
    /// server sheds the oldest slow request of the address holding the most for a newcomer, and
    /// refuses that address's own newcomers.
    @Test func aFullServerShedsTheLargestAddresssSlowRequestForANewcomer() throws {
        let observer = RecordingObserver()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, connectionLimit: 4, shedAfter: 0.2),
            responder: EchoResponder(), observer: observer)
        try server.start()
        defer { server.shutdown() }
        var slow: [RawClient] = []
        for _ in 0..<4 {
            let client = try RawClient(port: server.port, from: "127.0.0.2")
            client.send("GET /slow HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            slow.append(client)
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.4)
        // the attacker's own fifth connection is refused: the server is full, and it holds the most
        let fifth = try RawClient(port: server.port, from: "127.0.0.2")
        #expect(fifth.isClosedByPeer())
        // a newcomer from another address is answered; the oldest slow request made room for it
        let newcomer = try RawClient(port: server.port, from: "127.0.0.3")
        newcomer.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try newcomer.readResponse().status == 200)
        #expect(slow[0].isClosedByPeer())
        #expect(slow[1...].allSatisfy { $0.isOpen() })
        #expect(observer.events.contains("shed slow_request from 127.0.0.2"))
        #expect(observer.events.contains("refused full from 127.0.0.2"))
    }

    @Test func keepsConnectionsAliveAcrossRequests() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        for index in 0..<5 {
            client.send("POST /n\(index) HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello")
            let answer = try client.readResponse()
            #expect(answer.body == "POST /n\(index) ? x-test=- body=5")
            #expect(answer.headers["connection"] != "close")
        }
    }

    @Test func gathersChunkedBodies() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
        #expect(try client.readResponse().body.hasSuffix("body=7"))
    }

    @Test func refusesADeclaredOversizedBodyBeforeReadingIt() throws {
        let server = try startServer(maxBody: 10)
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 413)
        #expect(client.isClosedByPeer())
    }

    @Test func drainsAChunkedOversizedBodyThenRefusesIt() throws {
        let server = try startServer(maxBody: 10)
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("POST /big HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n")
        #expect(try client.readResponse().status == 413)
        client.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
    }

    @Test func refusesAnAddressThatIsNotALiteral() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "example.invalid", port: 0), responder: EchoResponder())
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func refusesAPortInUse() throws {
        let first = try startServer()
        defer { first.shutdown() }
        let second = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: first.port), responder: EchoResponder())
        #expect(throws: HTTPServerError.self) { try second.start() }
    }

    @Test func shutdownLetsRequestsInFlightFinish() throws {
        let server = try startServer(EchoResponder(delay: .milliseconds(300)))
        let client = try RawClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        while server.requestsInFlight == 0 { usleep(1000) }
        let stopper = Thread { server.shutdown(gracePeriod: 5) }
        stopper.start()
        let answer = try client.readResponse()
        #expect(answer.status == 200)
        #expect(answer.body.hasPrefix("GET /slow"))
        while stopper.isExecuting { usleep(1000) }
        #expect(throws: RawClient.ClientError.self) { _ = try RawClient(port: server.port) }
    }

    @Test func servesIPv6Loopback() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::1", port: 0, threads: 1), responder: EchoResponder())
        do {
            try server.start()
        } catch {
            return  // no IPv6 on this machine
        }
        defer { server.shutdown() }
        #expect(server.port > 0)
    }
}

/// Records what the server reports about its connections.
final class RecordingObserver: HTTPConnectionObserver {
    private let recorded = Locked<[String]>([])

    var events: [String] { recorded.withLock { $0 } }

    func shed(_ reason: HTTPShedReason, from group: ClientAddressGroup) {
        recorded.withLock { $0.append("shed \(reason.rawValue) from \(group)") }
    }

    func refused(_ reason: HTTPRefusalReason, from group: ClientAddressGroup) {
        recorded.withLock { $0.append("refused \(reason.rawValue) from \(group)") }
    }

    func endedEarly(stream: Bool, from group: ClientAddressGroup) {
        recorded.withLock { $0.append("ended \(stream ? "stream" : "long poll") from \(group)") }
    }
}
