/// What ``SessionChanges`` delivers.
public enum SessionChange: Hashable, Sendable {
    /// One event of the session's change log, in order, each once.
    case event(Event)
    /// The change log no longer holds events this client had not seen: here is the current
    /// state instead. Later events continue from it.
    case reloaded(SessionState)
}
