import MinervaSessions

/// A commit notice as `NOTIFY` carries it. Its first line is `instance session lastEvent` (`-` for
/// a deletion); a notice that carries the change goes on with ` appVersion head` on that line
/// (the head written as `version:lastEvent`, or `-` when it stayed), then each event as a line
/// `seq length` followed by its body of that many bytes. A change whose events would not fit in
/// PostgreSQL's payload (under 8,000 bytes) is announced by its first line alone.
extension CommitNotice {
    /// The most bytes of event bodies a notice carries, leaving room for its lines.
    static let eventBytesLimit = 7_400

    /// Whether a change with these events fits in one payload.
    static func fits(_ events: [EventRecord]) -> Bool {
        events.reduce(0) { $0 + $1.body.count + 24 } <= eventBytesLimit
    }

    /// The payload that announces this notice as `instance`'s.
    func payload(from instance: String) -> [UInt8] {
        var line = "\(instance) \(session) \(deleted ? "-" : String(lastEvent))"
        guard let change else { return Array(line.utf8) }
        line += " \(change.appVersion) " + (change.head.map { "\($0.version):\($0.lastEvent)" } ?? "-")
        var bytes = Array(line.utf8)
        for event in change.events {
            bytes.append(contentsOf: "\n\(event.seq) \(event.body.count)\n".utf8)
            bytes.append(contentsOf: event.body)
        }
        return bytes
    }

    /// Reads a payload; `nil` for one of `instance`'s own, or one that is not a notice.
    init?(payload: [UInt8], skipping instance: String) {
        var reader = PayloadReader(bytes: payload)
        guard let first = reader.line() else { return nil }
        let parts = first.split(separator: " ")
        guard parts.count == 3 || parts.count == 5, parts[0] != instance else { return nil }
        let session = String(parts[1])
        if parts[2] == "-" {
            guard parts.count == 3 else { return nil }
            self.init(session: session, lastEvent: 0, deleted: true)
            return
        }
        guard let lastEvent = Int(parts[2]) else { return nil }
        guard parts.count == 5 else {
            self.init(session: session, lastEvent: lastEvent, deleted: false)
            return
        }
        var head: SessionHead?
        if parts[4] != "-" {
            let numbers = parts[4].split(separator: ":").compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            head = SessionHead(version: numbers[0], lastEvent: numbers[1])
        }
        var events: [EventRecord] = []
        while !reader.isAtEnd {
            guard let line = reader.line() else { return nil }
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2, let body = reader.bytes(numbers[1]) else { return nil }
            events.append(EventRecord(seq: numbers[0], body: body))
        }
        self.init(
            session: session, lastEvent: lastEvent, deleted: false, change: NoticedChange(appVersion: String(parts[3]), events: events, head: head))
    }
}

/// Reads a payload's lines and counted bodies.
private struct PayloadReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position >= bytes.count }

    /// The text up to the next newline (or the end), which it passes.
    mutating func line() -> Substring? {
        guard !isAtEnd else { return nil }
        let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        position = min(end + 1, bytes.endIndex)
        return text[...]
    }

    /// The next `count` bytes, and the newline after them if one follows.
    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        let body = Array(bytes[position..<position + count])
        position += count
        if position < bytes.count, bytes[position] == UInt8(ascii: "\n") { position += 1 }
        return body
    }
}
