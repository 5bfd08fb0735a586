import ClientTraffic
import Foundation
import MinervaClient

/// One app behind one delay: the same taps with prediction (a ``PredictingSession``) and
/// without (``MinervaSession``, which shows a tap's state when the server answered), each on a
/// session of its own.
enum LatencyBenchmark {
    /// What one client measured.
    struct Figures {
        var observed: [Duration] = []
        var confirmed: [Duration] = []
        var requests = 0
        var bytes = 0
    }

    static func run(server: URL, label: String, taps: Int) async throws {
        let clock = ContinuousClock()
        var predicted = Figures()
        let traffic = CountsTraffic()
        let session = try await MinervaSession.create(on: MinervaConnection(serverURL: server, middlewares: [traffic]))
        let predicting = try await PredictingSession.start(session, device: "benchmark")
        var script = TapScript(app: try await session.app(), seed: 7)
        var outcomes = predicting.outcomes.makeAsyncIterator()
        var requests: [ChangeRequest] = []
        var (held, refused, corrected) = (0, 0, 0)
        let start = traffic.totals
        while requests.count < taps {
            let request = try script.next(on: await predicting.state)
            let tapped = clock.now
            do {
                try await predicting.apply(request)
            } catch is MinervaError {
                refused += 1
                continue
            }
            predicted.observed.append(clock.now - tapped)
            if await predicting.pendingChanges > 0 { held += 1 }
            requests.append(request)
            guard let outcome = await outcomes.next() else { break }
            predicted.confirmed.append(clock.now - tapped)
            if case .confirmed = outcome {} else { corrected += 1 }
        }
        predicted.requests = traffic.totals.requests - start.requests
        predicted.bytes = traffic.totals.bytes - start.bytes

        var waited = Figures()
        let baselineTraffic = CountsTraffic()
        let baseline = try await MinervaSession.create(on: MinervaConnection(serverURL: server, middlewares: [baselineTraffic]))
        let baselineStart = baselineTraffic.totals
        var baselineRefused = 0
        for request in requests {
            let tapped = clock.now
            do {
                try await baseline.apply(request)
            } catch is MinervaError {
                baselineRefused += 1
            }
            waited.observed.append(clock.now - tapped)
        }
        waited.requests = baselineTraffic.totals.requests - baselineStart.requests
        waited.bytes = baselineTraffic.totals.bytes - baselineStart.bytes

        let count = Double(requests.count)
        print(
            "\(label)  taps \(requests.count)  predicted: observed p50 \(ms(predicted.observed, 0.5)) p99 \(ms(predicted.observed, 0.99)) ms, held \(held), "
                + "confirmed p50 \(ms(predicted.confirmed, 0.5)) ms, \(fmt(Double(predicted.requests) / count)) req/tap, \(fmt(Double(predicted.bytes) / count)) B/tap, "
                + "waited \(await predicting.waitedChanges), corrected or dropped \(corrected)  |  without: observed p50 \(ms(waited.observed, 0.5)) p99 "
                + "\(ms(waited.observed, 0.99)) ms, \(fmt(Double(waited.requests) / count)) req/tap, \(fmt(Double(waited.bytes) / count)) B/tap, refused \(baselineRefused)"
        )
        await predicting.close()
        try await session.delete()
        try await baseline.delete()
    }

    /// The `q` quantile, in milliseconds.
    private static func ms(_ durations: [Duration], _ q: Double) -> String {
        guard !durations.isEmpty else { return "-" }
        let sorted = durations.sorted()
        let value = sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)]
        let milliseconds = Double(value.components.seconds) * 1000 + Double(value.components.attoseconds) / 1e15
        return milliseconds < 10 ? String(format: "%.3f", milliseconds) : String(format: "%.1f", milliseconds)
    }

    private static func fmt(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
