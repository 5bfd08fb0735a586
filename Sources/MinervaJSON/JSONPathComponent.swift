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
                text += excerpt(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// At most 64 characters of `text`, control characters escaped, `…` when shortened.
    static func excerpt(_ text: String) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < 64 else { return result + "…" }
            result += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
            count += 1
        }
        return result
    }
}
