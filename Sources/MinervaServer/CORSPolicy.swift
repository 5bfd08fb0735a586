import MicroHTTP

/// Which web origins may call the API from a browser (`--cors-origin`), and the CORS header
/// fields that go with it: the one place where cross-origin requests are decided.
///
/// An allowed origin's answers, errors and streams included, carry
/// `Access-Control-Allow-Origin` (that origin), `Vary: Origin` and the headers a page may
/// read; its preflight `OPTIONS` answers `204` without a token. An origin not allowed gets no
/// CORS headers, and its preflight answers `403`, so the browser refuses the request.
public struct CORSPolicy: Sendable {
    /// The allowed origins, as browsers send them (lower case, no default port).
    private let origins: Set<String>

    /// The headers a page may read from an answer.
    static let exposedHeaders = "ETag, X-Request-ID, Retry-After, Idempotent-Replayed, Minerva-Model-Version, Minerva-Already-Applied, Minerva-Applied-Version"
    /// The request headers a page may send.
    static let allowedHeaders = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, Minerva-Device-Change, Minerva-Device-Time, Minerva-Model-Version"
    /// Seconds a browser may keep a preflight's answer.
    static let maxAge = "600"

    /// No origin allowed: CORS off (the default).
    public static let off = CORSPolicy(allowed: [])

    private init(allowed: Set<String>) {
        origins = allowed
    }

    /// A policy that allows these origins; none turns CORS off.
    /// - Throws: ``InvalidOrigin`` for a text that is not `scheme://host[:port]`.
    public init(origins: [String]) throws(InvalidOrigin) {
        var allowed = Set<String>()
        for origin in origins {
            guard let normalized = Self.normalized(origin) else { throw InvalidOrigin(text: origin) }
            allowed.insert(normalized)
        }
        self.origins = allowed
    }

    /// Whether any origin is allowed.
    var isEnabled: Bool { !origins.isEmpty }

    /// The header fields every answer to `request` carries: `Vary: Origin` whenever CORS is on,
    /// and the `Access-Control-*` fields when its `Origin` is allowed.
    func headers(for request: HTTPRequest) -> [(name: String, value: String)] {
        guard isEnabled else { return [] }
        guard let origin = allowedOrigin(of: request) else { return [("Vary", "Origin")] }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"), ("Access-Control-Expose-Headers", Self.exposedHeaders)]
    }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
    /// on a known path; `nil` for any other request. It needs no token: `204` with the path's
    /// `methods` for an allowed origin.
    /// - Throws: `403` for an origin not allowed, naming the flag that would allow it.
    func preflight(_ request: HTTPRequest, allowing methods: [String]) throws(APIError) -> HTTPResponse? {
        guard request.method == "OPTIONS", let origin = request.header("origin"),
            request.header("access-control-request-method") != nil
        else { return nil }
        guard allowedOrigin(of: request) != nil else { throw .originNotAllowed(origin) }
        return HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
                ("Access-Control-Allow-Headers", Self.allowedHeaders), ("Access-Control-Max-Age", Self.maxAge),
                ("Cache-Control", "no-store"),
            ])
    }

    /// The request's `Origin` when it is allowed.
    private func allowedOrigin(of request: HTTPRequest) -> String? {
        guard let origin = request.header("origin"), let normalized = Self.normalized(origin), origins.contains(normalized) else {
            return nil
        }
        return origin
    }

    /// An origin as browsers serialise it (scheme and host in lower case, no default port);
    /// `nil` for anything but `scheme://host[:port]`.
    static func normalized(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard let separator = lowered.range(of: "://") else { return nil }
        let scheme = lowered[..<separator.lowerBound]
        var authority = lowered[separator.upperBound...]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        var port: Substring?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            port = authority[authority.index(after: colon)...]
            authority = authority[..<colon]
        }
        guard !authority.isEmpty, authority.unicodeScalars.allSatisfy(isHostScalar) else { return nil }
        guard let port else { return "\(scheme)://\(authority)" }
        guard port.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(port), (1...65535).contains(number) else { return nil }
        let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
        return isDefault ? "\(scheme)://\(authority)" : "\(scheme)://\(authority):\(number)"
    }

    /// Whether a character may be part of an origin's host: letters, digits, `-`, `.`, `_`,
    /// `~`, `%`, and the brackets and colons of an IPv6 literal.
    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || "-._~%[]:".unicodeScalars.contains(scalar)
    }

    /// A `--cors-origin` value that is not an origin.
    public struct InvalidOrigin: Error, CustomStringConvertible {
        /// The value as given.
        public let text: String

        public var description: String {
            "--cors-origin '\(text)' is not an origin; give scheme://host[:port] with no path, e.g. 'https://app.example.com' or 'http://localhost:3000'"
        }
    }
}
