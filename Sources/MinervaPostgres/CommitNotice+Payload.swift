import Crypto
import Foundation
import MinervaSessions

/// A commit notice as `NOTIFY` carries it. Its first line is `instance session lastEvent` (`-` for
/// a deletion); a notice that carries the change goes on with ` ` and the change sealed with the
/// store's notice key (AES-GCM, the first three fields authenticated with it) in base64. Sealed
/// is the change's own text: `appVersion head` (the head written as `version:lastEvent`, or `-`
/// when it stayed), then each event as a line `seq length` followed by its body of that many
/// bytes. `NOTIFY` and `LISTEN` need no privilege, so a role that may only connect could read
/// notices or send its own: it can neither open a change nor make one that opens, and a notice
/// whose change does not open is taken as its first line alone (the session is read when used).
/// A change too large for PostgreSQL's payload (under 8,000 bytes) is announced by its first line alone.
extension CommitNotice {
    /// The most bytes of event bodies a notice carries, leaving room for its lines, the seal and base64.
    static let eventBytesLimit = 5_400

    /// Whether a change with these events fits in one payload.
    static func fits(_ events: [EventRecord]) -> Bool {
        events.reduce(0) { $0 + $1.body.count + 24 } <= eventBytesLimit
    }

    /// A new notice key: 256 random bits.
    static func freshKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// The payload that announces this notice as `instance`'s, its change sealed with `key`.
    func payload(from instance: String, sealing key: [UInt8]) -> [UInt8] {
        let line = Array("\(instance) \(session) \(deleted ? "-" : String(lastEvent))".utf8)
        guard let change else { return line }
        var text = Array("\(change.appVersion) \(change.head.map { "\($0.version):\($0.lastEvent)" } ?? "-")".utf8)
        for event in change.events {
            text.append(contentsOf: "\n\(event.seq) \(event.body.count)\n".utf8)
            text.append(contentsOf: event.body)
        }
        guard let sealed = try? AES.GCM.seal(text, using: SymmetricKey(data: key), authenticating: line).combined else { return line }
        return line + Array(" ".utf8) + Array(sealed.base64EncodedString().utf8)
    }

    /// Reads a payload; `nil` for one of `instance`'s own, or one that is not a notice. A change
    /// that does not open with `key` is left out.
    init?(payload: [UInt8], skipping instance: String, opening key: [UInt8]) {
        // Split as bytes: every instance hears its own notices too, and passes them over cheaply.
        let parts = payload.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4, !parts[0].elementsEqual(instance.utf8) else { return nil }
        let session = String(decoding: parts[1], as: UTF8.self)
        guard !session.isEmpty else { return nil }
        if parts[2].elementsEqual("-".utf8) {
            guard parts.count == 3 else { return nil }
            self.init(session: session, lastEvent: 0, deleted: true)
            return
        }
        guard let lastEvent = Self.number(parts[2]) else { return nil }
        let line = payload[..<parts[2].endIndex]
        let change = parts.count == 4 ? Self.opened(parts[3], authenticating: line, with: key) : nil
        self.init(session: session, lastEvent: lastEvent, deleted: false, change: change)
    }

    /// The change a sealed part holds, or `nil` when it does not open or does not read.
    private static func opened(_ sealed: ArraySlice<UInt8>, authenticating line: ArraySlice<UInt8>, with key: [UInt8]) -> NoticedChange? {
        guard let combined = Data(base64Encoded: Data(sealed)), let box = try? AES.GCM.SealedBox(combined: combined),
            let text = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: line)
        else { return nil }
        var reader = PayloadReader(bytes: Array(text))
        guard let first = reader.line() else { return nil }
        let fields = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 2 else { return nil }
        var head: SessionHead?
        if !fields[1].elementsEqual("-".utf8) {
            let numbers = fields[1].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).compactMap(number)
            guard numbers.count == 2 else { return nil }
            head = SessionHead(version: numbers[0], lastEvent: numbers[1])
        }
        var events: [EventRecord] = []
        while !reader.isAtEnd {
            guard let line = reader.line() else { return nil }
            let numbers = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).compactMap(number)
            guard numbers.count == 2, let body = reader.bytes(numbers[1]) else { return nil }
            events.append(EventRecord(seq: numbers[0], body: body))
        }
        return NoticedChange(appVersion: String(decoding: fields[0], as: UTF8.self), events: events, head: head)
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

/// Reads a change's lines and counted bodies.
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
