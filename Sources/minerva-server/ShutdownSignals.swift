#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT, blocked in every thread and taken synchronously by the main thread.
struct ShutdownSignals {
    private var set = sigset_t()

    /// Blocks SIGTERM and SIGINT for this thread and every thread it starts, and ignores SIGPIPE.
    static func block() -> ShutdownSignals {
        var signals = ShutdownSignals()
        sigemptyset(&signals.set)
        sigaddset(&signals.set, SIGTERM)
        sigaddset(&signals.set, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals.set, nil)
        signal(SIGPIPE, SIG_IGN)
        return signals
    }

    /// Waits for SIGTERM or SIGINT.
    /// - Returns: the signal's name.
    func wait() -> String {
        var received: Int32 = 0
        var set = self.set
        sigwait(&set, &received)
        return received == SIGTERM ? "SIGTERM" : "SIGINT"
    }
}
