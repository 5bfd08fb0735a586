import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `hummingbird-peer`: a minimal Hummingbird 2 server that answers the requests of the HTTP
/// benchmark with the same bytes and headers as `minerva-server`, so that wrk compares the two
/// servers on equal answers.
///
/// It answers `GET /v1/sessions/{id}` (a fresh session's state, `ETag: "1"`),
/// `POST /v1/sessions/{id}/push` (the state after pushing a screen, `ETag: "2"`) and
/// `POST /v1/sessions/{id}/pop` (the state after popping it again, `ETag: "3"`) and
/// `PUT /v1/sessions/{id}/nodes/{node}/list` (a list diff, `ETag: "4"`), with
/// `Content-Type: application/json; charset=utf-8`, `Cache-Control: no-store` and an
/// `X-Request-ID` (a random prefix and a sequence number) as Minerva does.
/// The documents are ones Minerva answered: `--documents DIR` reads `get.json`, `push.json` and
/// `pop.json` that `run-http.sh` captures from the `minerva-server` it measures; without it, the
/// copies embedded below (captured once from the walking skeleton's demo app) are used. Either
/// way the document's session id is replaced by the one in the path, so the body is byte for
/// byte what Minerva sends for that session.
///
/// List PUT answers name no session: `--documents DIR` may also hold `list-put-N.json` files,
/// Minerva's answer to a PUT whose body is N bytes long (`wrk/list_put.lua`'s three bodies
/// differ in length). The peer reads the body and answers the file of its length, verbatim
/// (`422` for a length it has no answer for). Without such files every list PUT is `422`.
///
/// The peer does strictly less work than Minerva: no session lookup, no token comparison, no
/// tree change, no JSON parsing or encoding. It insists on an `Authorization: Bearer …` header
/// (else `401` with Minerva's body) and reads the request body, so that the HTTP work is the same.
/// A list PUT's body is only measured, never parsed.
///
///     hummingbird-peer [--host 127.0.0.1] [--port 8080] [--threads N] [--documents DIR]
///
/// `--port 0` picks a free port; either way the bound address is printed to standard error as
/// `listening on http://HOST:PORT`, like `minerva-server`. Without `--threads`, NIO's shared
/// event loop group is used (one thread per core).
@main
struct HummingbirdPeer {
    static func main() async throws {
        let options: Options
        let documents: Documents
        do {
            options = try Options(CommandLine.arguments.dropFirst())
            documents = try options.documents.map(Documents.init(directory:)) ?? Documents.embedded
        } catch {
            StandardError.emit("hummingbird-peer: \(error)\n")
            exit(64)
        }

        let router = Router()
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: Documents.headers(etag: nil), body: .init(byteBuffer: Documents.health))
        }
        router.get("/v1/sessions/:id") { request, context in
            try Documents.answer(request, context, suffix: documents.fresh, etag: #""1""#)
        }
        router.post("/v1/sessions/:id/push") { request, context in
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            return try Documents.answer(request, context, suffix: documents.pushed, etag: #""2""#)
        }
        router.post("/v1/sessions/:id/pop") { request, context in
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            return try Documents.answer(request, context, suffix: documents.popped, etag: #""3""#)
        }
        router.put("/v1/sessions/:id/nodes/:node/list") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            return Documents.listAnswer(request, bodyLength: body.readableBytes, documents.listPut)
        }

        let provider: EventLoopGroupProvider =
            if let threads = options.threads {
                .shared(MultiThreadedEventLoopGroup(numberOfThreads: threads))
            } else {
                .singleton
            }
        let host = options.host
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: options.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                let shown = host.contains(":") ? "[\(host)]" : host
                StandardError.emit("hummingbird-peer: listening on http://\(shown):\(port)\n")
            },
            eventLoopGroupProvider: provider
        )
        try await app.runService()
    }
}

/// The captured documents, each without its beginning up to the session id, and the headers
/// Minerva sends with them.
struct Documents: Sendable {
    /// `GET /v1/sessions/{id}` of a fresh session (version 1), after the id.
    let fresh: [UInt8]
    /// The answer to `POST /v1/sessions/{id}/push` on a fresh session (version 2), after the id.
    let pushed: [UInt8]
    /// The answer to the `POST /v1/sessions/{id}/pop` that follows (version 3), after the id.
    let popped: [UInt8]
    /// Answers to `PUT …/list` by the length of the request body, verbatim.
    var listPut: [Int: ByteBuffer] = [:]

    /// What every document starts with, before the session id.
    static let prefix = Array(#"{"id":""#.utf8)

    /// Reads `get.json`, `push.json` and `pop.json` from `directory`.
    init(directory: String) throws {
        func suffix(_ name: String) throws -> [UInt8] {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Options.UsageError(description: "cannot read \(path)")
            }
            let bytes = [UInt8](data)
            guard bytes.starts(with: Documents.prefix),
                let end = bytes[Documents.prefix.count...].firstIndex(of: UInt8(ascii: "\""))
            else {
                throw Options.UsageError(description: "\(path) does not start with {\"id\":\"…\"")
            }
            return Array(bytes[end...])
        }
        fresh = try suffix("get.json")
        pushed = try suffix("push.json")
        popped = try suffix("pop.json")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory)
        where name.hasPrefix("list-put-") && name.hasSuffix(".json") {
            guard let length = Int(name.dropFirst("list-put-".count).dropLast(".json".count)),
                let data = FileManager.default.contents(atPath: directory + "/" + name)
            else {
                throw Options.UsageError(description: "cannot read \(directory)/\(name) (list-put-LENGTH.json)")
            }
            listPut[length] = ByteBuffer(bytes: data)
        }
    }

    init(fresh: [UInt8], pushed: [UInt8], popped: [UInt8]) {
        self.fresh = fresh
        self.pushed = pushed
        self.popped = popped
    }

    /// The walking skeleton's demo app (a stack with `home`; push `{"screen":"settings"}`, then pop).
    static let embedded = Documents(fresh: freshEmbedded, pushed: pushedEmbedded, popped: poppedEmbedded)

    static let freshEmbedded = Array(
        #"","version":1,"layout":"stack","focus":"n1","root":{"id":"n0","screen":"demo","params":{},"presentation":{"kind":"app"},"navigator":null,"children":[{"id":"n1","screen":"home","params":{},"presentation":{"kind":"root"},"navigator":"v0","children":[]}]},"navigators":[{"id":"v0","stack":["n1"],"presented":null,"parent":null,"embedded":true}],"tabs":null,"flags":[]}"#
            .utf8)

    static let pushedEmbedded = Array(
        #"","version":2,"layout":"stack","focus":"n2","root":{"id":"n0","screen":"demo","params":{},"presentation":{"kind":"app"},"navigator":null,"children":[{"id":"n1","screen":"home","params":{},"presentation":{"kind":"root"},"navigator":"v0","children":[{"id":"n2","screen":"settings","params":{},"presentation":{"kind":"push"},"navigator":"v0","children":[]}]}]},"navigators":[{"id":"v0","stack":["n1","n2"],"presented":null,"parent":null,"embedded":true}],"tabs":null,"flags":[]}"#
            .utf8)

    static let poppedEmbedded = Array(
        #"","version":3,"layout":"stack","focus":"n1","root":{"id":"n0","screen":"demo","params":{},"presentation":{"kind":"app"},"navigator":null,"children":[{"id":"n1","screen":"home","params":{},"presentation":{"kind":"root"},"navigator":"v0","children":[]}]},"navigators":[{"id":"v0","stack":["n1"],"presented":null,"parent":null,"embedded":true}],"tabs":null,"flags":[]}"#
            .utf8)

    /// Minerva's `401` body, word for word.
    static let unauthorized = ByteBuffer(
        string:
            #"{"error":{"code":"unauthorized","message":"missing or invalid bearer token for this session; send 'Authorization: Bearer <token>' with the token returned when the session was created"}}"#
    )

    static let health = ByteBuffer(string: #"{"status":"ok"}"#)

    static func headers(etag: String?) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let etag { fields[.eTag] = etag }
        fields[requestIDField] = requestIDPrefix + String(requestSequence.add(1, ordering: .relaxed).newValue, radix: 16)
        return fields
    }

    static let requestIDField = HTTPFields.Element.Name("X-Request-ID")!

    /// Like Minerva's: 8 random base64url characters and a dash, then the request's number in hex.
    static let requestIDPrefix: String = {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<8).map { _ in alphabet.randomElement()! }) + "-"
    }()

    /// Checks for `Authorization: Bearer <something>` and answers the document for the path's session id.
    static func answer(_ request: Request, _ context: BasicRequestContext, suffix: [UInt8], etag: String) throws -> Response {
        guard let authorization = request.headers[.authorization], hasBearerToken(authorization) else {
            return Response(status: .unauthorized, headers: headers(etag: nil), body: .init(byteBuffer: unauthorized))
        }
        let id = try context.parameters.require("id")
        var buffer = ByteBuffer()
        buffer.reserveCapacity(prefix.count + id.utf8.count + suffix.count)
        buffer.writeBytes(prefix)
        buffer.writeString(id)
        buffer.writeBytes(suffix)
        return Response(status: .ok, headers: headers(etag: etag), body: .init(byteBuffer: buffer))
    }

    /// Checks for `Authorization: Bearer <something>` and answers the list PUT answer for a body
    /// of `bodyLength` bytes.
    static func listAnswer(_ request: Request, bodyLength: Int, _ answers: [Int: ByteBuffer]) -> Response {
        guard let authorization = request.headers[.authorization], hasBearerToken(authorization) else {
            return Response(status: .unauthorized, headers: headers(etag: nil), body: .init(byteBuffer: unauthorized))
        }
        guard let answer = answers[bodyLength] else {
            return Response(status: .unprocessableContent, headers: headers(etag: nil), body: .init(byteBuffer: unknownList))
        }
        return Response(status: .ok, headers: headers(etag: #""4""#), body: .init(byteBuffer: answer))
    }

    static let unknownList = ByteBuffer(
        string: #"{"error":{"code":"unprocessable","message":"hummingbird-peer has no answer for a list of this length"}}"#)

    static func hasBearerToken(_ header: String) -> Bool {
        let parts = header.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer" && !parts[1].isEmpty
    }
}

/// Numbers the answers for `X-Request-ID`.
let requestSequence = Atomic<Int>(0)

/// `--host`, `--port`, `--threads` and `--documents`, as `--name value` or `--name=value`.
struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var threads: Int?
    var documents: String?

    static let names: Set<String> = ["--host", "--port", "--threads", "--documents"]

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let argument = rest.popFirst() {
            let name: Substring
            let value: String
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else if argument == "--help" || argument == "-h" {
                print("usage: hummingbird-peer [--host HOST] [--port PORT] [--threads N] [--documents DIR]")
                exit(0)
            } else {
                name = argument[...]
                guard Self.names.contains(String(name)) else { throw UsageError(description: "unknown option \(argument)") }
                guard let next = rest.popFirst() else { throw UsageError(description: "\(argument) needs a value") }
                value = next
            }
            switch name {
            case "--host":
                host = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw UsageError(description: "--port must be between 0 and 65535")
                }
                self.port = port
            case "--threads":
                guard let threads = Int(value), threads >= 1 else {
                    throw UsageError(description: "--threads must be at least 1")
                }
                self.threads = threads
            case "--documents":
                documents = value
            default:
                throw UsageError(description: "unknown option \(argument)")
            }
        }
    }
}

/// Unbuffered writes to standard error, so the address line is seen at once.
enum StandardError {
    static func emit(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = write(2, bytes.baseAddress, bytes.count)
        }
    }
}
