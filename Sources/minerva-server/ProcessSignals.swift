#if canImport(Glibc)
import Glibc
#endif

/// The signals the server acts on: SIGTERM and SIGINT stop it gracefully, SIGHUP reloads the
/// app description. They are blocked in every thread and taken with `sigwait` on the main one.
struct ProcessSignals {
    /// What a signal asks for.
    enum Request {
        /// Stop (the signal's name).
        case stop(String)
        /// Read the app description again.
        case reload
    }

    private var set = sigset_t()

    /// Blocks SIGTERM, SIGINT and SIGHUP for this thread and every thread it starts, and ignores SIGPIPE.
    static func block() -> ProcessSignals {
        var signals = ProcessSignals()
        sigemptyset(&signals.set)
        sigaddset(&signals.set, SIGTERM)
        sigaddset(&signals.set, SIGINT)
        sigaddset(&signals.set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals.set, nil)
        signal(SIGPIPE, SIG_IGN)
        return signals
    }

    /// Waits for the next signal.
    func wait() -> Request {
        var received: Int32 = 0
        var set = self.set
        sigwait(&set, &received)
        switch received {
        case SIGHUP: return .reload
        case SIGTERM: return .stop("SIGTERM")
        default: return .stop("SIGINT")
        }
    }
}
