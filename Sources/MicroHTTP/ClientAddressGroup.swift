#if canImport(Glibc)
import Glibc
#endif

/// The clients that share one connection budget: an IPv4 address, or an IPv6 /64 prefix (one
/// host commonly holds a whole /64, so counting its addresses one by one would count nothing).
/// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4 address.
public struct ClientAddressGroup: Hashable, Sendable, CustomStringConvertible {
    private enum Key: Hashable {
        case v4(UInt32)
        case v6Prefix(UInt64)
        /// A family other than IP (a Unix socket): all such clients share one group.
        case other
    }

    private let key: Key

    private init(key: Key) {
        self.key = key
    }

    /// The group of an IPv4 address.
    /// - Parameter ipv4: the address in host byte order (`127.0.0.1` is `0x7F00_0001`).
    public init(ipv4: UInt32) {
        key = .v4(ipv4)
    }

    /// The group of an IPv6 address: its /64 prefix, or its IPv4 address when it is IPv4-mapped.
    /// - Parameter ipv6: the address's 16 bytes in network order.
    public init(ipv6 bytes: [UInt8]) {
        precondition(bytes.count == 16, "an IPv6 address has 16 bytes")
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            key = .v4(bytes[12...].reduce(0) { $0 << 8 | UInt32($1) })
        } else {
            key = .v6Prefix(bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    /// The group of a socket address as the kernel gives it.
    init(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(ipv4: UInt32(bigEndian: ipv4))
        case AF_INET6:
            var bytes = [UInt8](repeating: 0, count: 16)
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { bytes = Array($0) }
            }
            self.init(ipv6: bytes)
        default:
            self.init(key: .other)
        }
    }

    /// `127.0.0.2`, `2001:db8:1:2::/64`, or `local` for a client that is not on IP.
    public var description: String {
        switch key {
        case .v4(let address):
            return (0..<4).map { String(address >> (24 - 8 * UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6Prefix(let prefix):
            let words = (0..<4).map { String(prefix >> (48 - 16 * UInt64($0)) & 0xFFFF, radix: 16) }
            return words.joined(separator: ":") + "::/64"
        case .other:
            return "local"
        }
    }
}
