import MinervaJSON

/// Why a navigation operation was refused. A refused operation changed nothing.
public struct NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure, which the HTTP layer maps to a status.
    public enum Category: Hashable, Sendable {
        /// A node, navigator or route that does not exist.
        case notFound
        /// A request that is well formed but names something invalid (unknown screen, missing params).
        case invalid
        /// An operation that the current navigation state does not allow.
        case conflict
    }

    /// The class of failure.
    public let category: Category
    /// What is wrong, in words a person can act on.
    public let description: String
    /// Whether the operation named a screen or route that the app does not declare: for a
    /// session still on an earlier app version that may be one the app no longer has.
    public let namesUndeclared: Bool
    /// The error's own code for a conflict that a client handles apart (`not_visible`,
    /// `covered`, `not_dismissible`, `removed`); `nil` for the category's code.
    public let code: String?

    init(category: Category, description: String, namesUndeclared: Bool = false, code: String? = nil) {
        self.category = category
        self.description = description
        self.namesUndeclared = namesUndeclared
        self.code = code
    }

    static func unknownNode(_ id: String) -> NavigationError {
        NavigationError(category: .notFound, description: "no node \(Excerpt(id)) in this session")
    }

    /// A node or presented navigator the session had and removed (another device popped or
    /// dismissed it first): `409` with code `removed`, never applied to another node.
    static func removed(_ what: String, _ id: String) -> NavigationError {
        NavigationError(
            category: .conflict,
            description: "\(what) '\(id)' was removed from this session (another change took it away first); read the state and act on what it shows",
            code: "removed")
    }

    static func unknownNavigator(_ id: String) -> NavigationError {
        NavigationError(category: .notFound, description: "no navigator \(Excerpt(id)) in this session")
    }

    /// A screen or route the app does not declare.
    static func undeclared(_ category: Category, _ message: String) -> NavigationError {
        NavigationError(category: category, description: message, namesUndeclared: true)
    }

    static func invalid(_ message: String) -> NavigationError {
        NavigationError(category: .invalid, description: message)
    }

    static func conflict(_ message: String) -> NavigationError {
        NavigationError(category: .conflict, description: message)
    }

    /// A presentation or tab change from a navigator the device does not show.
    static func notVisible(_ message: String) -> NavigationError {
        NavigationError(category: .conflict, description: message, code: "not_visible")
    }

    /// A change under a window-level presentation that covers it.
    static func covered(_ message: String) -> NavigationError {
        NavigationError(category: .conflict, description: message, code: "covered")
    }

    /// An interactive dismissal of a node that says it cannot be swiped away.
    static func notDismissible(_ message: String) -> NavigationError {
        NavigationError(category: .conflict, description: message, code: "not_dismissible")
    }
}
