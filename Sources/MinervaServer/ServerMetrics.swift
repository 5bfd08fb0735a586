import Locking
import Metrics
import MinervaModel
import MinervaSessions

/// The figures operators expect, through swift-metrics (the executable exports them in the
/// Prometheus text format at `/metrics`): requests by route and status with their latency,
/// live sessions and nodes, open event streams and followers, events by type (the session core
/// counts list diffs itself).
final class ServerMetrics: Sendable {
    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// Each request kind's counter and its route's latency timer, found with one lookup.
    private let requestFigures = Locked<[RequestKey: (counter: Counter, timer: Metrics.Timer)]>([:])
    private let sessionGauge = Gauge(label: "minerva_sessions")
    private let nodeGauge = Gauge(label: "minerva_nodes")
    private let streamGauge = Gauge(label: "minerva_event_streams")
    private let subscriberGauge = Gauge(label: "minerva_event_subscribers")
    private let appVersionGauges = Locked<[String: Gauge]>([:])
    private let otherModelCounter = Counter(label: "minerva_changes_from_other_models_total")
    /// One counter per event kind, made up front so that every kind is exported from the start.
    private let eventCounters = Dictionary(
        uniqueKeysWithValues: SessionEvent.Kind.allCases.map { ($0, Counter(label: "minerva_events_total", dimensions: [("type", $0.rawValue)])) })

    /// Counts a request and records how long its answer took.
    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(route: route, method: method, status: status)
        let (counter, timer) = requestFigures.withLock { figures in
            if let found = figures[key] { return found }
            let made = (
                counter: Counter(label: "minerva_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))]),
                timer: Metrics.Timer(label: "minerva_http_request_duration_seconds", dimensions: [("route", route)])
            )
            figures[key] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(nanoseconds)
    }

    /// Records how many sessions exist and how many nodes the sessions in memory hold.
    func sessions(_ count: Int, nodes: Int) {
        sessionGauge.record(count)
        nodeGauge.record(nodes)
    }

    /// Records how many event streams are open (each holds its connection), and how many long
    /// polls and streams follow sessions: both fall back when clients go away.
    func followers(streams: Int, subscribers: Int) {
        streamGauge.record(streams)
        subscriberGauge.record(subscribers)
    }

    /// Records how many sessions in memory run each app version (versions no session runs any
    /// more go to 0).
    func sessionsByAppVersion(_ counts: [String: Int]) {
        appVersionGauges.withLock { gauges in
            for (version, gauge) in gauges where counts[version] == nil { gauge.record(0) }
            for (version, count) in counts {
                let gauge = gauges[version] ?? Gauge(label: "minerva_sessions_in_memory", dimensions: [("app_version", version)])
                gauges[version] = gauge
                gauge.record(count)
            }
        }
    }

    /// Counts a change whose client ran another model version than this server's (`Minerva-Model-Version`):
    /// in a rolling upgrade, the clients whose predictions the server may correct.
    func changeFromOtherModel() {
        otherModelCounter.increment()
    }

    /// Counts a block of events by type.
    func events(_ block: some Collection<SessionEvent>) {
        for event in block { eventCounters[event.kind]?.increment() }
    }
}
