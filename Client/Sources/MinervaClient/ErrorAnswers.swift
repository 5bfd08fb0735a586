import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer with a status of 400 or more into a thrown ``MinervaError``, so that each
/// operation reads only its success answer.
struct ErrorAnswers: ClientMiddleware {
    /// The most of an error answer's body that is read.
    private static let bodyLimit = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: Self.bodyLimit) }
        let document = try? JSONDecoder().decode(Components.Schemas.ErrorDocument.self, from: bytes)
        throw MinervaError(
            status: response.status.code,
            code: document.map { MinervaError.Code(rawValue: $0.error.code) },
            message: document?.error.message ?? String(decoding: bytes, as: UTF8.self),
            retryAfter: response.headerFields[.retryAfter].flatMap(Int.init).map { .seconds($0) },
            requestID: response.headerFields[.requestID]
        )
    }
}

extension HTTPField.Name {
    /// The request id that every answer of the server carries.
    static let requestID = Self("X-Request-ID")!
}
