/// The answer of `GET …/nodes/{node}/list`: the list and its diff from `since`, or (`reload`,
/// with `diff` null) the list to reload when `since` is older than the versions the server keeps.
public struct ListPage: Codable, Hashable, Sendable {
    /// The list version.
    public let version: Int
    /// The list's sections.
    public let sections: [ListSection]
    /// The diff from `since`; nil when the list is to be reloaded.
    public let diff: ListDiff?
    /// True when the list is to be reloaded rather than patched.
    public let reload: Bool?

    /// Creates an answer (the client reads them from the server; tests and previews make them).
    public init(version: Int, sections: [ListSection], diff: ListDiff?, reload: Bool? = nil) {
        self.version = version
        self.sections = sections
        self.diff = diff
        self.reload = reload
    }
}
