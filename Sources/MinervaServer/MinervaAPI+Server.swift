import MicroHTTP
import MinervaJSON
import MinervaModel

extension MinervaAPI {
    /// `GET /healthz`: `200` while the session store can be used, else `503` with the reason (a
    /// load balancer then routes around this instance until the store is back).
    func health() -> HTTPResponse {
        guard let problem = core.storageProblem() else { return Self.json(200, Array(#"{"status":"ok"}"#.utf8)) }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("status", "unavailable")
        writer.field("reason", "the session store cannot be used: \(problem)")
        writer.endObject()
        return Self.json(503, writer.bytes, headers: [("Retry-After", "1")])
    }

    /// `GET /metrics`: the metrics in the Prometheus text format, the gauges recorded first.
    func getMetrics() -> HTTPResponse {
        refreshGauges()
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
            body: metricsText())
    }

    /// `GET /` (`index.html`) and `GET /web/{fileName}`: a file of the web client.
    func getWebFile(_ name: String) throws(APIError) -> HTTPResponse {
        guard let response = web.response(for: name) else { throw .notFound("no such file: \(Excerpt(name))") }
        return response
    }

    /// `GET /v1/app`: the app description new sessions run, with its version.
    func getApp() -> HTTPResponse {
        Self.json(200, appDocument.withLock { $0 })
    }

    /// `GET /v1/app/versions/{appVersion}`: the app description of a version a session may run,
    /// immutable (the version is the SHA-256 of its document): a strong `ETag`, a year's
    /// `Cache-Control`, and `304` for an `If-None-Match` that names it.
    /// - Throws: `404` for a version this server never ran and no store keeps; `503` when the
    ///   store cannot be read.
    func getApp(version: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let headers = [("ETag", "\"\(version)\""), ("Cache-Control", "public, max-age=31536000, immutable")]
        let app = try throughCore { () throws(SessionError) in try core.app(ofVersion: version) }
        guard let app else { throw .notFound("no app description of version \(Excerpt(version)) is kept; GET /v1/app names the current one") }
        if let tags = request.header("if-none-match"), Self.entityTags(tags).contains(where: { $0 == "*" || $0 == version }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: AppDocument.encode(app).document)
    }

    /// The entity tags of an `If-None-Match` header, without quotes or a weak prefix.
    private static func entityTags(_ header: String) -> [Substring] {
        header.split(separator: ",").map { tag in
            var tag = tag.drop { $0 == " " || $0 == "\t" }
            while tag.last == " " || tag.last == "\t" { tag = tag.dropLast() }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag.count >= 2 && tag.first == "\"" && tag.last == "\"" ? tag.dropFirst().dropLast() : tag
        }
    }

    /// `GET /v1/server`: what this server offers besides the app.
    func getServer() -> HTTPResponse {
        Self.json(200, serverDocument)
    }
}
