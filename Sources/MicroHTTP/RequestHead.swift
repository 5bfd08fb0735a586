import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// A request's line and header block as libmicrohttpd's first handler call has them: the path
/// and query arguments percent-decoded (here, once), the header fields with every byte
/// libmicrohttpd stored, and what is malformed about them at the HTTP level, if anything.
struct RequestHead {
    let method: String
    let path: String
    let query: [(name: String, value: String)]
    /// Names lower-cased.
    let headers: [(name: String, value: String)]
    /// Why the request must be refused with `400` before anything else, if it must.
    let malformation: String?

    init(connection: OpaquePointer, method: String, url: UnsafePointer<CChar>?, version: String) {
        self.method = method
        // One pass over the header block: each field lower-cased, decoded and checked as it is read.
        var headers: [(name: String, value: String)] = []
        var framing = RequestFraming()
        Self.forEachValue(of: connection, kind: .HEADER_KIND) { name, value in
            headers.append(framing.read(name: name, value: value))
        }
        self.headers = headers
        var problem: String?
        let target = url.map { UnsafeRawBufferPointer(start: $0, count: strlen($0)) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let rawPath = Self.path(of: target)
        do throws(PercentDecoding.Failure) {
            path = try PercentDecoding.decode(rawPath)
        } catch {
            problem = Self.message(error, in: "the path")
            path = String(decoding: rawPath, as: UTF8.self)
        }
        if rawPath.contains(where: { $0 == UInt8(ascii: " ") || $0 == 0x09 }) {
            // libmicrohttpd takes `GET /a b HTTP/1.1` as the target `/a b`; RFC 9112 does not.
            problem = problem ?? "the request target contains whitespace; percent-encode it (%20)"
        }
        var query: [(name: String, value: String)] = []
        Self.forEachValue(of: connection, kind: .GET_ARGUMENT_KIND) { name, value in
            do throws(PercentDecoding.Failure) {
                query.append((try PercentDecoding.decode(name), try PercentDecoding.decode(value)))
            } catch {
                problem = problem ?? Self.message(error, in: "a query argument")
            }
        }
        self.query = query
        malformation = problem ?? framing.problem(version: version)
    }

    /// The path of a request target: the target itself in origin form (`/a/b`); in absolute form
    /// (`http://host/a/b`), which RFC 9112 §3.2.2 has a server accept, what follows the authority.
    private static func path(of target: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard target.first != UInt8(ascii: "/"), let schemeEnd = schemeEnd(of: target) else { return target }
        let rest = UnsafeRawBufferPointer(rebasing: target[schemeEnd...])
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else {
            // no path after the authority: the path is `/` (a static string's bytes live forever)
            return UnsafeRawBufferPointer(start: ("/" as StaticString).utf8Start, count: 1)
        }
        return UnsafeRawBufferPointer(rebasing: rest[slash...])
    }

    /// Where the authority starts when a target begins with `http://` or `https://` (any case).
    private static func schemeEnd(of target: UnsafeRawBufferPointer) -> Int? {
        for scheme in ["http://", "https://"] where target.count >= scheme.utf8.count {
            if zip(target, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return scheme.utf8.count }
        }
        return nil
    }

    private static func message(_ failure: PercentDecoding.Failure, in part: String) -> String {
        switch failure {
        case .nul: "\(part) contains a NUL byte (%00)"
        case .badEscape: "\(part) has a '%' that is not followed by two hex digits"
        case .notUTF8: "\(part) is not UTF-8 once percent-decoded"
        }
    }

    /// Calls `body` with each header field or query argument of the current request, with the
    /// sizes libmicrohttpd recorded (a libmicrohttpd that records a header value's full size
    /// shows a NUL inside it; 0.9.75 measures values with `strlen`, so there a raw NUL still ends
    /// one unseen, as the README's security notes say). A query argument without `=` has an
    /// empty value.
    private static func forEachValue(
        of connection: OpaquePointer, kind: MHD_ValueKind, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Void
    ) {
        withoutActuallyEscaping(body) { body in
            final class Visitor {
                let body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
                init(_ body: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) { self.body = body }
            }
            let visitor = Visitor(body)
            _ = MHD_get_connection_values_n(
                connection, kind,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    Unmanaged<Visitor>.fromOpaque(cls).takeUnretainedValue().body(
                        UnsafeRawBufferPointer(start: key, count: keySize),
                        UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize))
                    return .YES
                }, Unmanaged.passUnretained(visitor).toOpaque())
            withExtendedLifetime(visitor) {}
        }
    }
}
