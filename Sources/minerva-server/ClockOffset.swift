import Dispatch
import MinervaServer
import MinervaSessions
import Synchronization

/// `--clock-offset-file`, for tests that need time to pass: the server clock is the system's
/// plus the seconds written in the file, which is read again every 50 ms (a missing or
/// unreadable file counts as 0).
final class ClockOffset {
    /// The offset in milliseconds, shared with the clock.
    private final class Offset: Sendable {
        let milliseconds = Atomic<Int>(0)

        func read(_ path: String) {
            let text = readFile(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let seconds = Double(text.filter { !$0.isWhitespace }) ?? 0
            // At most a century either way: any offset a test needs, and no overflow.
            milliseconds.store(seconds.isFinite ? Int(min(max(seconds, -3.2e9), 3.2e9) * 1000) : 0, ordering: .relaxed)
        }
    }

    private let offset = Offset()
    private let timer: any DispatchSourceTimer

    /// Reads the file now and every 50 ms from now on.
    init(path: String) {
        offset.read(path)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "minerva.clock-offset"))
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50), leeway: .milliseconds(5))
        timer.setEventHandler { [offset] in offset.read(path) }
        timer.resume()
    }

    /// The system clock plus the offset, in seconds since 1970.
    var now: @Sendable () -> Double {
        { [offset] in SessionConfiguration.wallClock() + Double(offset.milliseconds.load(ordering: .relaxed)) / 1000 }
    }
}
