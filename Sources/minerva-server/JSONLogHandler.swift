import Logging
import MinervaJSON

#if canImport(Glibc)
import Glibc
#endif

/// A swift-log handler that writes one JSON object per line to standard error:
/// `{"ts", "level", "label", "message", …metadata}`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("ts", Self.timestamp())
        writer.field("level", event.level.rawValue)
        writer.field("label", label)
        writer.field("message", event.message.description)
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }).sorted(by: { $0.key < $1.key }) {
            writer.key(string: key)
            writer.string(value.description)
        }
        writer.endObject()
        var line = writer.bytes
        line.append(0x0A)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Now, as RFC 3339 UTC with milliseconds.
    private static func timestamp() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(time.tv_nsec / 1_000_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
