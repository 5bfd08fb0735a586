import Dispatch
import MinervaServer

/// Expires idle sessions and records session usage in the background at a fixed interval.
final class SessionSweeper {
    private let timer: any DispatchSourceTimer

    init(api: MinervaAPI, interval: Double) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "minerva.session-sweeper"))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler {
            api.core.expireIdleSessions()
            api.core.flushUsage()
            api.core.refreshSessionCount()
        }
    }

    func start() {
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }
}
