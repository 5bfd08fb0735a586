import Locking
import Metrics
import Synchronization

/// The figures operators expect, through swift-metrics (the executable exports them in the
/// Prometheus text format at `/metrics`): requests by route and status with their latency,
/// live sessions and nodes, list diffs and their duration, navigation events.
final class ServerMetrics: Sendable {
    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private let requestCounters = Locked<[RequestKey: Counter]>([:])
    private let requestTimers = Locked<[String: Metrics.Timer]>([:])
    private let sessionGauge = Gauge(label: "minerva_sessions")
    private let nodeGauge = Gauge(label: "minerva_nodes")
    private let nodeCount = Atomic<Int>(0)
    private let listDiffs = Counter(label: "minerva_list_diffs_total")
    private let listDiffDuration = Metrics.Timer(label: "minerva_list_diff_duration_seconds")
    private let eventCounters = [
        "removed": Counter(label: "minerva_events_total", dimensions: [("type", "removed")]),
        "finished": Counter(label: "minerva_events_total", dimensions: [("type", "finished")]),
    ]

    /// Counts a request and records how long its answer took.
    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(route: route, method: method, status: status)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "minerva_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        let timer = requestTimers.withLock { timers in
            if let timer = timers[route] { return timer }
            let timer = Metrics.Timer(label: "minerva_http_request_duration_seconds", dimensions: [("route", route)])
            timers[route] = timer
            return timer
        }
        timer.recordNanoseconds(nanoseconds)
    }

    /// Records how many sessions are live.
    func sessions(_ count: Int) {
        sessionGauge.record(count)
    }

    /// Records a change in the number of nodes across all sessions.
    func nodes(changedBy delta: Int) {
        guard delta != 0 else { return }
        nodeGauge.record(nodeCount.add(delta, ordering: .relaxed).newValue)
    }

    /// Records one list diff.
    func listDiff(nanoseconds: Int64) {
        listDiffs.increment()
        listDiffDuration.recordNanoseconds(nanoseconds)
    }

    /// Counts navigation events by type.
    func events(removed: Int, finished: Int) {
        if removed > 0 { eventCounters["removed"]!.increment(by: removed) }
        if finished > 0 { eventCounters["finished"]!.increment(by: finished) }
    }
}
