/// Why the session core refused a request. It knows nothing of HTTP: the API maps each
/// ``Category`` to a status in one place.
public struct SessionError: Error, Sendable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Category: Sendable, Equatable {
        /// No such session, or the token does not match it (never told apart).
        case unauthorized
        /// An unknown node, navigator, route or list.
        case notFound
        /// Well-formed but invalid: an unknown screen, missing params, duplicate ids, over a size limit.
        case invalid
        /// Not possible in this state (including a session that would grow over its limits).
        case conflict
        /// The version the client named is not the current one.
        case preconditionFailed(current: Int)
        /// The session's request budget is spent; retry after the given seconds.
        case rateLimited(retryAfter: Double)
        /// Storage refused or is unreachable; retry after the given seconds. When the outcome is
        /// unknown, a retry with the same `Idempotency-Key` answers whatever was committed.
        case unavailable(retryAfter: Double, outcomeUnknown: Bool)
        /// The session was made with an app description this server does not serve (another app).
        case appChanged
        /// The session runs a newer version of the app than this process, or the operation needs
        /// a screen or route that the app it still runs here no longer has.
        case appVersionConflict
    }

    /// The kind of refusal.
    public let category: Category
    /// What is wrong and what to do about it.
    public let description: String
    /// The refusal's own code where a client handles it apart (`not_visible`, `covered`,
    /// `not_dismissible`); `nil` for the category's code.
    public let code: String?

    /// Creates an error.
    public init(_ category: Category, _ description: String, code: String? = nil) {
        self.category = category
        self.description = description
        self.code = code
    }

    /// An unknown session or a wrong token.
    public static let unauthorized = SessionError(.unauthorized, "unknown session or wrong token")

    /// An unknown node, navigator, route or list.
    public static func notFound(_ message: String) -> SessionError { SessionError(.notFound, message) }
    /// Well-formed but invalid.
    public static func invalid(_ message: String) -> SessionError { SessionError(.invalid, message) }
    /// Not possible in this state.
    public static func conflict(_ message: String) -> SessionError { SessionError(.conflict, message) }

    /// A session made with an app description this server no longer serves.
    public static func appChanged(_ id: String, serving app: String) -> SessionError {
        SessionError(
            .appChanged,
            "session \(id) was made with an app description this server no longer serves (it serves '\(app)'); create a new session")
    }

    /// The store cannot be read right now.
    public static let storeUnreadable = SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "storage cannot be read right now; retry later")

    /// Storage refused a write: nothing was changed.
    public static func notStored(_ what: String) -> SessionError {
        SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "\(what) could not be stored; nothing was changed, retry later")
    }

    /// Storage stopped answering after a write was sent: it may have been committed.
    public static func outcomeUnknown(_ what: String) -> SessionError {
        SessionError(
            .unavailable(retryAfter: 1, outcomeUnknown: true),
            "storage stopped answering while \(what) was being stored")
    }
}
