import Dispatch
import Glibc
import Locking
import Testing

@testable import MicroHTTP

/// Answers with a stream that sends nothing after its first chunk, and counts the streams that closed.
final class IdleStreamResponder: HTTPResponder {
    let closed = Locked(0)

    func reply(to request: HTTPRequest) -> HTTPReply {
        let stream = HTTPStream(heartbeat: Array(": beat\n\n".utf8)) { [closed] in closed.withLock { $0 += 1 } }
        stream.send(Array("data: hello\n\n".utf8))
        return .stream(status: 200, headers: [("Content-Type", "text/event-stream")], stream)
    }
}

/// Waits up to `seconds` for `condition`.
private func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ConnectionTable.now() + seconds
    while !condition() {
        guard ConnectionTable.now() < deadline else { return false }
        usleep(10_000)
    }
    return true
}

@Suite struct StreamLifetimeTests {
    private func start(_ responder: IdleStreamResponder, heartbeat: Double) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, streamHeartbeat: heartbeat), responder: responder)
        try server.start()
        return server
    }

    @Test(arguments: [false, true])
    func aStreamWhoseClientLeftIsReleasedWithoutAnotherChunk(reset: Bool) throws {
        let responder = IdleStreamResponder()
        let server = try start(responder, heartbeat: 60)  // no heartbeat during the test: the socket alone tells
        defer { server.shutdown() }
        do {
            let client = try RawClient(port: server.port)
            client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try client.read(through: "data: hello\n\n")
            if reset { client.resetOnClose() }
        }
        #expect(eventually(within: 3) { responder.closed.withLock { $0 } == 1 })
        #expect(eventually(within: 3) { server.requestsInFlight == 0 })
    }

    @Test func anIdleStreamGetsItsHeartbeatAndABusyOneDoesNot() throws {
        let responder = IdleStreamResponder()
        let server = try start(responder, heartbeat: 0.2)
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        let started = ConnectionTable.now()
        let text = try client.read(through: ": beat\n\n")
        #expect(text.contains("data: hello\n\n"))
        #expect(ConnectionTable.now() - started < 1.5)
        #expect(responder.closed.withLock { $0 } == 0)
    }

    @Test func theHeartbeatIsQueuedOnlyAfterAnIdleInterval() {
        let stream = HTTPStream(heartbeat: [1])
        let now = ConnectionTable.now()
        #expect(!stream.keepAlive(now: now, interval: 5))
        #expect(stream.keepAlive(now: now + 5, interval: 5))
        // the heartbeat still waits to be read: no second one
        #expect(!stream.keepAlive(now: now + 20, interval: 5))
        #expect(read(stream) == [1])
        #expect(!stream.keepAlive(now: now + 9, interval: 5))
        #expect(stream.keepAlive(now: now + 10, interval: 5))
        _ = read(stream)
        // any chunk sent counts as a sign of life
        stream.send([2])
        _ = read(stream)
        #expect(!stream.keepAlive(now: ConnectionTable.now() + 4, interval: 5))
        stream.finish()
        #expect(!stream.keepAlive(now: now + 100, interval: 5))
        #expect(!HTTPStream().keepAlive(now: now + 100, interval: 5))  // a stream without a heartbeat
    }

    @Test func anAbandonedStreamEndsWithAnErrorAndTakesNoMore() {
        let closed = Locked(0)
        let stream = HTTPStream(heartbeat: [1]) { closed.withLock { $0 += 1 } }
        stream.send([7])
        stream.abandon()
        #expect(stream.isClosed)
        #expect(!stream.send([8]))
        #expect(!stream.keepAlive(now: ConnectionTable.now() + 100, interval: 1))
        var buffer = [CChar](repeating: 0, count: 16)
        #expect(stream.read(into: &buffer, capacity: buffer.count) == -2)  // MHD_CONTENT_READER_END_WITH_ERROR
        // libmicrohttpd then releases the stream: its owner hears once
        stream.cancel()
        stream.cancel()
        #expect(closed.withLock { $0 } == 1)
    }

    /// What the content reader hands libmicrohttpd now.
    private func read(_ stream: HTTPStream) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = stream.read(into: &buffer, capacity: buffer.count)
        return count > 0 ? buffer[..<count].map { UInt8(bitPattern: $0) } : []
    }
}
