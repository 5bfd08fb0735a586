/// The `If-Match` precondition of a mutation (and `If-None-Match` of a read): `*`, or a list of
/// entity tags, compared with the session's version.
struct IfMatch: Sendable {
    private let header: String?

    init(_ header: String?) {
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
}
