import Crypto
import Foundation
import MinervaSessions

/// A commit notice as `NOTIFY` carries it: a first line `instance session lastEvent` (`-` for a
/// deletion), a space, and a seal in base64: AES-GCM under the store's notice key of the change
/// the notice carries (nothing, when it carries none), the first line authenticated with it. The
/// change is `appVersion head` (the head written as `version:lastEvent`, or `-` when it stayed),
/// then each event as a line `seq length` followed by its body of that many bytes.
/// `NOTIFY` and `LISTEN` need no privilege, so a role that may only connect could read notices
/// or send its own: it can neither open a change nor make a notice that opens, and a notice that
/// does not open is not heard (the periodic check catches up what a lost notice said).
/// A change too large for PostgreSQL's payload (under 8,000 bytes) is announced without it.
extension CommitNotice {
    /// The most bytes of event bodies a notice carries, leaving room for its lines, the seal and base64.
    static let eventBytesLimit = 5_400

    /// A new notice key: 256 random bits.
    static func freshKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// Whether a change with these events fits in one payload.
    static func fits(_ events: [EventRecord]) -> Bool {
        events.reduce(0) { $0 + $1.body.count + 24 } <= eventBytesLimit
    }

    /// The payload that announces this notice as `instance`'s, sealed with `key`.
    func payload(from instance: String, sealing key: [UInt8]) -> [UInt8] {
        let line = Array("\(instance) \(session) \(deleted ? "-" : String(lastEvent))".utf8)
        var text: [UInt8] = []
        if let change {
            text = Array("\(change.appVersion) \(change.head.map { "\($0.version):\($0.lastEvent)" } ?? "-")".utf8)
            for event in change.events {
                text.append(contentsOf: "\n\(event.seq) \(event.body.count)\n".utf8)
                text.append(contentsOf: event.body)
            }
        }
        return Self.sealed(text, under: line, with: key)
    }

    /// `line`, a space and `text` sealed under it, in base64.
    static func sealed(_ text: [UInt8], under line: [UInt8], with key: [UInt8]) -> [UInt8] {
        // Sealing fails only for a key of another size than AES takes, which the store never has.
        let sealed = (try? AES.GCM.seal(text, using: SymmetricKey(data: key), authenticating: line).combined) ?? Data()
        return line + Array(" ".utf8) + Array(sealed.base64EncodedString().utf8)
    }

    /// Reads a payload; `nil` for one of `instance`'s own, one that does not open with `key`, or
    /// one that is not a notice.
    init?(payload: [UInt8], skipping instance: String, opening key: [UInt8]) {
        // Split as bytes: every instance hears its own notices too, and passes them over cheaply.
        let parts = payload.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].elementsEqual(instance.utf8), !parts[1].isEmpty,
            let text = Self.opened(parts[3], authenticating: payload[..<parts[2].endIndex], with: key)
        else { return nil }
        let session = String(decoding: parts[1], as: UTF8.self)
        if parts[2].elementsEqual("-".utf8) {
            guard text.isEmpty else { return nil }
            self.init(session: session, lastEvent: 0, deleted: true)
            return
        }
        guard let lastEvent = Self.number(parts[2]) else { return nil }
        guard !text.isEmpty else {
            self.init(session: session, lastEvent: lastEvent, deleted: false)
            return
        }
        guard let change = Self.change(text) else { return nil }
        self.init(session: session, lastEvent: lastEvent, deleted: false, change: change)
    }

    /// What a seal holds, or `nil` when it does not open under `line` with `key`.
    private static func opened(_ sealed: ArraySlice<UInt8>, authenticating line: ArraySlice<UInt8>, with key: [UInt8]) -> [UInt8]? {
        guard let combined = Data(base64Encoded: Data(sealed)), let box = try? AES.GCM.SealedBox(combined: combined),
            let text = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: line)
        else { return nil }
        return Array(text)
    }

    /// The change an opened seal holds, or `nil` when it does not read.
    private static func change(_ text: [UInt8]) -> NoticedChange? {
        var reader = PayloadReader(bytes: text)
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
