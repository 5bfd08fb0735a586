import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the headers whose values hold characters URI encoding escapes as they are written:
/// entity tags (`If-Match`, `If-None-Match`: `"3"`, quotes and all), a device's change number
/// (`Minerva-Device-Change: phone-4f2a/12`) and its time (`Minerva-Device-Time`, RFC 3339).
///
/// OpenAPIRuntime writes header parameters URI-encoded (the `simple` style of RFC 6570), which
/// turns `"3"` into `%223%22` and `phone/12` into `phone%2F12`: values the server refuses (`400`).
struct UnescapedHeaders: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifMatch, .ifNoneMatch, .deviceChange, .deviceTime] {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}

extension HTTPField.Name {
    /// A change's number on the device that made it.
    static let deviceChange = Self("Minerva-Device-Change")!
    /// When the device made the change.
    static let deviceTime = Self("Minerva-Device-Time")!
}
