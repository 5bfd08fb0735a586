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

    private init(_ category: Category, _ description: String) {
        self.category = category
        self.description = description
    }

    static func unknownNode(_ id: String) -> NavigationError {
        NavigationError(.notFound, "no node '\(id)' in this session")
    }

    static func unknownNavigator(_ id: String) -> NavigationError {
        NavigationError(.notFound, "no navigator '\(id)' in this session")
    }

    static func invalid(_ message: String) -> NavigationError {
        NavigationError(.invalid, message)
    }

    static func conflict(_ message: String) -> NavigationError {
        NavigationError(.conflict, message)
    }
}
