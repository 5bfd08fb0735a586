import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-Match` and `If-None-Match` as HTTP writes entity tags: `"3"`, quotes and all.
///
/// OpenAPIRuntime writes header parameters URI-encoded (the `simple` style of RFC 6570), which
/// turns `"3"` into `%223%22`, a value that names no entity tag (the server answers `400`).
struct EntityTagHeaders: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifMatch, .ifNoneMatch] {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}
