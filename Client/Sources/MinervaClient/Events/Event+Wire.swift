import Foundation
import OpenAPIRuntime

extension Event {
    /// Reads events as the server writes them: JSON with times in RFC 3339 with milliseconds.
    static let wireDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try ISO8601DateTranscoder.iso8601WithFractionalSeconds.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }()
}
