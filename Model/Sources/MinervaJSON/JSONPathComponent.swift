/// One step of the path from a document's root to a member: an object's key or an array's index.
///
/// A path prints as `sections[0].items[2].id`.
public enum JSONPathComponent: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A member of an object.
    case key(String)
    /// An element of an array.
    case index(Int)

    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }

    /// The path's text, each key shortened to at most 64 characters with control characters
    /// escaped, so that a client's key can never flood or break a message.
    static func text(of path: [JSONPathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += Excerpt(key).unquoted
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
