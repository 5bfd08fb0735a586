import Glibc

/// A blocking TCP client for tests: sends bytes, reads whole HTTP/1.1 answers.
final class RawClient {
    private let socket: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`, from `source` (a loopback address: all of 127/8 is local).
    init(port: Int, from source: String = "127.0.0.1") throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ClientError.connect }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw ClientError.connect }
    }

    deinit { close(socket) }

    enum ClientError: Error { case connect, closed }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one answer: status, lower-cased headers and body (by Content-Length).
    func readResponse() throws -> (status: Int, headers: [String: String], body: String) {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let status = Int(lines.removeFirst().split(separator: " ")[1])!
                var headers: [String: String] = [:]
                for line in lines where !line.isEmpty {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0")!
                while buffer.count < end + 4 + length { try fill() }
                let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                buffer.removeFirst(end + 4 + length)
                return (status, headers, body)
            }
            try fill()
        }
    }

    /// Reads until `marker` has arrived and returns everything read so far (head and body as they
    /// came, for streamed answers).
    func read(through marker: String) throws -> String {
        while !String(decoding: buffer, as: UTF8.self).contains(marker) { try fill() }
        defer { buffer = [] }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Makes the close (when the client is released) a reset: RST instead of FIN.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Whether the server closed the connection (reads until end of stream).
    func isClosedByPeer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        return recv(socket, &chunk, chunk.count, 0) <= 0
    }

    /// Whether the connection is still open, without waiting: nothing to read and no end of stream.
    func isOpen() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { throw ClientError.closed }
        buffer.append(contentsOf: chunk[0..<count])
    }
}
