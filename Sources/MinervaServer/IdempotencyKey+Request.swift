import MicroHTTP
import MinervaSessions

extension IdempotencyKey {
    /// Reads a request's `Idempotency-Key` header; `nil` when absent. The fingerprint covers the
    /// method, path and body, so that the same key with another request is told apart.
    /// - Throws: `400` for a key that is empty, longer than 255 characters or not printable ASCII.
    static func parse(_ request: HTTPRequest) throws(APIError) -> IdempotencyKey? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw .invalidRequest("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces")
        }
        return IdempotencyKey(key: key, fingerprint: fnv1a([Array(request.method.utf8), Array(request.path.utf8), request.body]))
    }

    /// FNV-1a over the parts with a separator, stable across runs (unlike `Hasher`).
    static func fnv1a(_ parts: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            hash = (hash ^ 0xFF) &* 0x100_0000_01b3
        }
        return hash
    }
}

extension StoredAnswer {
    /// An answer to remember.
    init(_ response: HTTPResponse) {
        self.init(status: response.status, headers: response.headers, body: response.body)
    }

    /// The answer to send.
    var response: HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The answer to send to a retry with the same key: marked `Idempotent-Replayed: true`.
    var replayResponse: HTTPResponse {
        HTTPResponse(status: status, headers: headers + [("Idempotent-Replayed", "true")], body: body)
    }
}
