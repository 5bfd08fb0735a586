import MicroHTTP
import MinervaJSON

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

    /// `GET /v1/server`: what this server offers besides the app.
    func getServer() -> HTTPResponse {
        Self.json(200, serverDocument)
    }
}
