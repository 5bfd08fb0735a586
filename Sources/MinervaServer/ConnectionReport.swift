import Locking
public import Logging
import Metrics
public import MicroHTTP

#if canImport(Glibc)
import Glibc
#endif

/// What the HTTP edge does to keep connections shared fairly, counted in the metrics
/// (`minerva_http_connections_shed_total` and `minerva_http_connections_refused_total` by
/// `reason`, `minerva_http_waits_ended_early_total` by `kind`) and logged at most once per
/// client address (an IPv6 /64) per minute, with how many more there were.
public final class ConnectionReport: HTTPConnectionObserver {
    private let logger: Logger
    private let throttle = Locked(LogThrottle<ClientAddressGroup>(period: 60))
    private let shedCounters = Dictionary(
        uniqueKeysWithValues: HTTPShedReason.allCases.map {
            ($0, Counter(label: "minerva_http_connections_shed_total", dimensions: [("reason", $0.rawValue)]))
        })
    private let refusedCounters = Dictionary(
        uniqueKeysWithValues: HTTPRefusalReason.allCases.map {
            ($0, Counter(label: "minerva_http_connections_refused_total", dimensions: [("reason", $0.rawValue)]))
        })

    private let endedCounters = [false, true].map {
        Counter(label: "minerva_http_waits_ended_early_total", dimensions: [("kind", $0 ? "stream" : "long_poll")])
    }

    /// Creates a report whose counters exist (at 0) from the start.
    /// - Parameter logger: where the once-a-minute lines go (at `notice`).
    public init(logger: Logger) {
        self.logger = logger
    }

    public func shed(_ reason: HTTPShedReason, from group: ClientAddressGroup) {
        shedCounters[reason]?.increment()
        log(group, "a connection shed (\(reason.rawValue))")
    }

    public func refused(_ reason: HTTPRefusalReason, from group: ClientAddressGroup) {
        refusedCounters[reason]?.increment()
        log(group, "a new connection refused (\(reason == .full ? "server full" : "as many connections as one address may hold"))")
    }

    public func endedEarly(stream: Bool, from group: ClientAddressGroup) {
        endedCounters[stream ? 1 : 0].increment()
        log(group, stream ? "an event stream ended early (server full)" : "a long poll answered early (server full)")
    }

    private func log(_ group: ClientAddressGroup, _ what: String) {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        guard let heldBack = throttle.withLock({ $0.admit(group, now: Double(time.tv_sec)) }) else { return }
        let since = heldBack > 0 ? "; \(heldBack) more from it in the last minute, not logged" : ""
        logger.notice("connections from \(group): \(what)\(since); the next line about it comes in a minute at the earliest")
    }
}
