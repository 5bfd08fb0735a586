import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A proxy that makes the real server's JSON answers look like those of a later release: every
/// object gains a member this client does not know, every `tabSelected` event becomes an event of
/// a type it does not know (`tabMoved`, with a field of its own), and the removal reason `pop` a
/// reason it does not know (`swipedAway`).
struct AnswersAsANewerServer: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let responseBody, response.headerFields[.contentType]?.hasPrefix("application/json") == true else {
            return (response, responseBody)
        }
        let json = try JSONSerialization.jsonObject(with: try await Data(collecting: responseBody, upTo: 16 << 20))
        return (response, HTTPBody(try JSONSerialization.data(withJSONObject: Self.later(json))))
    }

    /// The value as a later release might write it.
    static func later(_ value: Any) -> Any {
        switch value {
        case var object as [String: Any]:
            for (key, member) in object { object[key] = later(member) }
            object["addedLater"] = ["by": "a later release", "values": [1, 2]]
            if object["reason"] as? String == "pop" { object["reason"] = "swipedAway" }
            if object["type"] as? String == "tabSelected" {
                object["type"] = "tabMoved"
                object["to"] = object.removeValue(forKey: "tab")
            }
            return object
        case let array as [Any]:
            return array.map(later)
        default:
            return value
        }
    }
}
