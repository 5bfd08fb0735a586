/// The `If-Match` precondition of a mutation (and `If-None-Match` of a read): `*`, or a list of
/// quoted entity tags, compared with the session's version.
struct IfMatch: Sendable {
    private let header: String?

    /// Reads the header's value; a value that is not `*` or a list of quoted entity tags (`5`
    /// for `"5"`, or nothing) is refused, as it could never match and would fail quietly.
    /// - Parameters:
    ///   - header: the field's value, if the request has one.
    ///   - name: the field's name, for the error message.
    /// - Throws: `400` saying how to write the entity tag.
    init(_ header: String?, name: String) throws(APIError) {
        if let header {
            guard !header.trimmingSpaces.isEmpty else {
                throw .invalidRequest("\(name) is empty; send the ETag the server gave, quotes included, as in \(name): \"3\"")
            }
            for tag in header.split(separator: ",") {
                let candidate = String(tag).trimmingSpaces
                guard candidate.isEmpty || candidate == "*" || Self.isQuoted(candidate) else {
                    let bare = candidate.trimmingCharacters(of: "\"")
                    throw .invalidRequest(
                        "\(name) \(Excerpt(candidate)) is not an entity tag: entity tags are quoted; send \(name): \"\(bare)\" as the ETag header gave it"
                    )
                }
            }
        }
        self.header = header
    }

    /// The precondition for the session core; `nil` without a header.
    var precondition: (@Sendable (Int) -> Bool)? {
        guard header != nil else { return nil }
        return { version in self.matches(version: version) }
    }

    /// Whether the precondition holds for the session's current version; no header always holds.
    func matches(version: Int) -> Bool {
        guard let header else { return true }
        let current = "\"\(version)\""
        for tag in header.split(separator: ",") {
            var candidate = Substring(String(tag).trimmingSpaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == current { return true }
        }
        return false
    }

    /// Whether `tag` is `"…"` or `W/"…"`.
    private static func isQuoted(_ tag: String) -> Bool {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        return opaque.count >= 2 && opaque.hasPrefix("\"") && opaque.hasSuffix("\"")
    }
}

extension String {
    /// The string without leading and trailing `character`s.
    fileprivate func trimmingCharacters(of character: Character) -> String {
        guard let first = firstIndex(where: { $0 != character }) else { return "" }
        let last = lastIndex(where: { $0 != character })!
        return String(self[first...last])
    }
}
