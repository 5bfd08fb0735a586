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
        // Split as bytes: every instance hears its own notices too, and passes them over cheaply.
        let parts = first.split(separator: UInt8(ascii: " "))
        guard parts.count == 3 || parts.count == 5, !parts[0].elementsEqual(instance.utf8) else { return nil }
        let session = String(decoding: parts[1], as: UTF8.self)
        if parts[2].elementsEqual("-".utf8) {
            guard parts.count == 3 else { return nil }
            self.init(session: session, lastEvent: 0, deleted: true)
            return
        }
        guard let lastEvent = Self.number(parts[2]) else { return nil }
        guard parts.count == 5 else {
            self.init(session: session, lastEvent: lastEvent, deleted: false)
            return
        }
        var head: SessionHead?
        if !parts[4].elementsEqual("-".utf8) {
            let numbers = parts[4].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).compactMap(Self.number)
            guard numbers.count == 2 else { return nil }
            head = SessionHead(version: numbers[0], lastEvent: numbers[1])
        }
        var events: [EventRecord] = []
        while !reader.isAtEnd {
            guard let line = reader.line() else { return nil }
            let numbers = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).compactMap(Self.number)
            guard numbers.count == 2, let body = reader.bytes(numbers[1]) else { return nil }
            events.append(EventRecord(seq: numbers[0], body: body))
        }
        self.init(
            session: session, lastEvent: lastEvent, deleted: false,
            change: NoticedChange(appVersion: String(decoding: parts[3], as: UTF8.self), events: events, head: head))
    }

    /// A decimal number written in ASCII digits.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (tens, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = tens.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return value
    }
}

/// Reads a payload's lines and counted bodies.
private struct PayloadReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position >= bytes.count }

    /// The bytes up to the next newline (or the end), which it passes.
    mutating func line() -> ArraySlice<UInt8>? {
        guard !isAtEnd else { return nil }
        let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let line = bytes[position..<end]
        position = min(end + 1, bytes.endIndex)
        return line
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
