/// Why a JSON object could not be read: a member missing, of the wrong type, unknown, or
/// refused by the caller's own check; always with the member's path from the document's root.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case missing
        case wrongType(expected: String, found: String)
        case unknown(suggestion: String?, known: [String])
        case invalid(String)
    }

    private let kind: Kind
    /// The path of the member at fault, outermost first; empty for the document itself.
    private var components: [JSONPathComponent]

    private init(_ kind: Kind, at components: [JSONPathComponent]) {
        self.kind = kind
        self.components = components
    }

    /// A required member that is absent or `null`.
    @usableFromInline
    static func missing(_ key: String) -> JSONReadError {
        JSONReadError(.missing, at: [.key(key)])
    }

    /// A value of the wrong JSON type at `path`.
    /// - Parameter expected: what it must be, with its article ("a string").
    @usableFromInline
    package static func wrongType(_ path: [JSONPathComponent], expected: String, found: JSONValue) -> JSONReadError {
        JSONReadError(.wrongType(expected: expected, found: found.typeName), at: path)
    }

    /// A member whose name is not among `known`, with the nearest known name when one is close.
    static func unknown(_ key: String, known: JSONKeys) -> JSONReadError {
        JSONReadError(.unknown(suggestion: known.nearest(to: key), known: known.names), at: [.key(key)])
    }

    /// A value refused by the caller's own check, with what is wrong.
    package static func invalid(_ path: [JSONPathComponent], _ message: String) -> JSONReadError {
        JSONReadError(.invalid(message), at: path)
    }

    /// The same error, seen from an enclosing object: `prefix` comes before the path.
    @usableFromInline
    func prefixed(by prefix: JSONPathComponent...) -> JSONReadError {
        JSONReadError(kind, at: prefix + components)
    }

    /// The path of the member at fault (`sections[0].items[2].id`), empty for the document.
    public var path: String { JSONPathComponent.text(of: components) }

    /// What is wrong with the member at ``path``, without naming it ("is required",
    /// "must be a string, not number", "unknown field; did you mean 'toRoot'?").
    public var reason: String {
        switch kind {
        case .missing: "is required"
        case .wrongType(let expected, let found): "must be \(expected), not \(found)"
        case .unknown(let suggestion, let known): "unknown field; " + hint(suggestion, known)
        case .invalid(let message): message
        }
    }

    /// One sentence naming the member and what is wrong
    /// (`unknown field 'to_root'; did you mean 'toRoot'?`).
    public var description: String {
        let path = self.path
        switch kind {
        case .missing:
            return "field '\(path)' is required"
        case .wrongType:
            return path.isEmpty ? "the JSON value \(reason)" : "field '\(path)' \(reason)"
        case .unknown(let suggestion, let known):
            return "unknown field '\(path)'; " + hint(suggestion, known)
        case .invalid(let message):
            return path.isEmpty ? message : "field '\(path)': \(message)"
        }
    }

    private func hint(_ suggestion: String?, _ known: [String]) -> String {
        if let suggestion { return "did you mean '\(suggestion)'?" }
        if known.isEmpty { return "this object takes no fields" }
        return "the known fields are " + known.map { "'\($0)'" }.joined(separator: ", ")
    }
}
