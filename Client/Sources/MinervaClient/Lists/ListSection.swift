/// A section of a list: its id and its cells. A client states a list as sections
/// (``MinervaSession/putList(_:on:)``) and reads it back the same way.
public struct ListSection: Codable, Hashable, Sendable, Identifiable {
    /// The section's id, unique in the list.
    public var id: String
    /// Its cells.
    public var items: [ListItem]

    /// A section.
    public init(id: String, items: [ListItem]) {
        self.id = id
        self.items = items
    }
}

/// A cell of a list: its id (unique in the list), its kind (which cell class shows it) and what
/// it shows.
public struct ListItem: Codable, Hashable, Sendable, Identifiable {
    /// The cell's id, unique in the list.
    public var id: String
    /// Its kind: which cell class shows it.
    public var kind: String
    /// What it shows, any JSON value; the server answers it in canonical form (object keys
    /// sorted, `1.0` as `1`).
    public var content: JSONValue

    /// A cell.
    public init(id: String, kind: String, content: JSONValue = .null) {
        self.id = id
        self.kind = kind
        self.content = content
    }
}

/// A node's list as the state document carries it: its version, and its sections with the diff
/// from the previous version (or, with `?lists=summary`, its cell count).
public struct NodeList: Codable, Hashable, Sendable {
    /// The list version: 1 for the first, then one more with every `PUT`.
    public var version: Int
    /// Its cell count (with `?lists=summary` only).
    public var count: Int?
    /// Its sections (not with `?lists=summary`).
    public var sections: [ListSection]?
    /// The diff from the previous version (not with `?lists=summary`).
    public var diff: ListDiff?

    /// A node's list.
    public init(version: Int, count: Int? = nil, sections: [ListSection]? = nil, diff: ListDiff? = nil) {
        self.version = version
        self.count = count
        self.sections = sections
        self.diff = diff
    }
}

/// The answer to a list `PUT`: the new list version and the diff from the previous one.
public struct ListPutAnswer: Codable, Hashable, Sendable {
    /// The new list version.
    public var version: Int
    /// What changed, in `UICollectionView` batch-update terms.
    public var diff: ListDiff

    /// An answer.
    public init(version: Int, diff: ListDiff) {
        self.version = version
        self.diff = diff
    }
}
