public import MinervaJSON

/// A cell model: one row of a list, identified across versions by its `id`.
public struct Cell: Hashable, Sendable {
    /// Unique within the whole list, so that a cell can move between sections.
    public let id: String
    /// What kind of cell the client renders (`user`, `header`, …).
    public let kind: String
    /// What the cell shows, as canonical JSON text: compared as a JSON value.
    public let content: CellContent

    /// Creates a cell model.
    public init(id: String, kind: String, content: CellContent) {
        self.id = id
        self.kind = kind
        self.content = content
    }

    /// Creates a cell model, writing `content` as canonical text (see ``CellContent``).
    public init(id: String, kind: String, content: JSONValue) {
        self.init(id: id, kind: kind, content: CellContent(content))
    }

    /// Whether what the client shows for this cell differs (`kind` or `content`).
    func differs(from other: Cell) -> Bool {
        kind != other.kind || content != other.content
    }
}

/// A section of a list: an id and its cells in order.
public struct ListSection: Hashable, Sendable {
    /// Unique within the list.
    public let id: String
    /// The cells, in order.
    public let items: [Cell]

    /// Creates a section.
    public init(id: String, items: [Cell]) {
        self.id = id
        self.items = items
    }
}
