import Crypto

/// Random secrets for session ids and bearer tokens.
public enum Token {
    /// The SHA-256 of a token: what is kept and stored instead of the token itself.
    public static func hash(_ token: String) -> [UInt8] {
        Array(digest(token))
    }

    /// Whether `token`'s SHA-256 is `hash`, compared in constant time.
    public static func matches(_ token: String, hash: [UInt8]) -> Bool {
        digest(token).withUnsafeBytes { digest in
            hash.withUnsafeBytes { constantTimeEqual(digest, $0) }
        }
    }

    private static func digest(_ token: String) -> SHA256.Digest {
        var token = token
        var hasher = SHA256()
        token.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    /// Compares two byte strings in time that depends only on their lengths.
    static func constantTimeEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `count` bytes from the system's cryptographic generator, base64url-encoded without padding.
    public static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return base64URL(Array(bytes.prefix(count)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            let characters = min(4, (bytes.count - index) * 4 / 3 + 1)
            for position in 0..<characters {
                output.append(alphabet[Int(triple >> (18 - 6 * UInt32(position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
