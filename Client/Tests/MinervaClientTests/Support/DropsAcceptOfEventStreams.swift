import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A proxy that does not pass `Accept: text/event-stream` on, so that the server answers the
/// events as JSON instead of a stream.
struct DropsAcceptOfEventStreams: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.accept] = "application/json"
        return try await next(request, body, baseURL)
    }
}
