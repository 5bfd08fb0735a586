public import MinervaJSON

extension ListHistory {
    /// The history as a JSON value for storage: the version, the current content and the
    /// retained older versions. ``init(snapshot:)`` reads it back.
    public var snapshot: JSONValue {
        [
            "version": .int(version), "retained": .int(retainedVersions), "current": current.snapshot,
            "older": .array(older.map { ["version": .int($0.version), "content": $0.content.snapshot] }),
        ]
    }

    /// Reads a history back from ``snapshot``; the latest diff is computed again.
    /// - Throws: ``ListError`` when the value is not a list history.
    public init(snapshot value: JSONValue) throws(ListError) {
        guard let members = value.objectValue, let version = members["version"]?.intValue, version >= 1,
            let retained = members["retained"]?.intValue, let current = members["current"], let olderValues = members["older"]?.arrayValue
        else { throw ListError(description: "not a stored list history") }
        var older: [(version: Int, content: ListContent)] = []
        for element in olderValues {
            guard let olderVersion = element.objectValue?["version"]?.intValue, let content = element.objectValue?["content"] else {
                throw ListError(description: "not a stored list history")
            }
            older.append((olderVersion, try ListContent(snapshot: content)))
        }
        self.init(version: version, current: try ListContent(snapshot: current), older: older, retainedVersions: retained)
    }
}

extension ListContent {
    /// The content as `[{"id", "items": [{"id", "kind", "content"}]}]`.
    var snapshot: JSONValue {
        .array(
            sections.map { section in
                [
                    "id": .string(section.id),
                    "items": .array(section.items.map { ["id": .string($0.id), "kind": .string($0.kind), "content": $0.content] }),
                ]
            })
    }

    init(snapshot value: JSONValue) throws(ListError) {
        guard let sectionValues = value.arrayValue else { throw ListError(description: "not stored list content") }
        var sections: [ListSection] = []
        for sectionValue in sectionValues {
            guard let section = sectionValue.objectValue, let id = section["id"]?.stringValue, let items = section["items"]?.arrayValue else {
                throw ListError(description: "not stored list content")
            }
            var cells: [Cell] = []
            for item in items {
                guard let cell = item.objectValue, let cellID = cell["id"]?.stringValue, let kind = cell["kind"]?.stringValue else {
                    throw ListError(description: "not stored list content")
                }
                cells.append(Cell(id: cellID, kind: kind, content: cell["content"] ?? .null))
            }
            sections.append(ListSection(id: id, items: cells))
        }
        try self.init(sections: sections)
    }
}
