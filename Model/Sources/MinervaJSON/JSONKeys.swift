/// The member names an object may carry: what ``JSONObjectReader`` accepts, and where it
/// looks for the name a client meant when it meets one it does not know.
///
/// Declare each set once (a `static let`), not at every read: the reader then allocates nothing
/// to check a body's names.
public struct JSONKeys: Sendable, ExpressibleByArrayLiteral {
    /// The names, in the order they are listed in messages.
    let names: [String]

    /// Creates a set from its names.
    public init(_ names: [String]) {
        self.names = names
    }

    public init(arrayLiteral names: String...) {
        self.init(names)
    }

    /// Whether `key` is one of the names.
    /// - Complexity: O(n) in the number of names, which is small.
    func contains(_ key: String) -> Bool {
        for name in names where name == key { return true }
        return false
    }
}
