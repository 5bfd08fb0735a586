import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A proxy that makes the server say it runs a later navigation model than this client's
/// (`GET /v1/server`'s `modelVersion` one more), as a server upgraded before the app is.
struct RunsAnotherModel: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard operationID == "getServer", let responseBody else { return (response, responseBody) }
        var info = try JSONSerialization.jsonObject(with: try await Data(collecting: responseBody, upTo: 1 << 20)) as? [String: Any] ?? [:]
        info["modelVersion"] = (info["modelVersion"] as? Int ?? 0) + 1
        return (response, HTTPBody(try JSONSerialization.data(withJSONObject: info)))
    }
}
