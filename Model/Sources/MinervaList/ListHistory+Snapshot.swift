public import MinervaJSON

extension ListHistory {
    /// Reads a history stored whole, as stores did before each version had a record of its own:
    /// `{"current", "older": [{"content", "version"}], "retained", "version"}`; the latest diff
    /// is computed again.
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

extension ListHistory {
    /// The versions kept, oldest first and the current one last: what storage keeps, one record
    /// per version, so that a replacement writes only its own.
    public var keptVersions: [(version: Int, content: ListContent)] {
        older.map { ($0.version, $0.content) } + [(version, current)]
    }

    /// The oldest version kept.
    public var oldestKeptVersion: Int {
        older.first?.version ?? version
    }

    /// Reads a history back from its kept versions, oldest first (``keptVersions``, each
    /// content read with ``ListContent/init(snapshot:)``); the latest diff is computed again.
    /// - Throws: ``ListError`` when there is no version or the versions are not in order.
    public init(keptVersions versions: [(version: Int, content: ListContent)], retainedVersions: Int) throws(ListError) {
        guard let newest = versions.last, newest.version >= 1,
            zip(versions, versions.dropFirst()).allSatisfy({ $0.version < $1.version })
        else { throw ListError(description: "not a stored list history") }
        self.init(
            version: newest.version, current: newest.content, older: versions.dropLast().suffix(retainedVersions).map { $0 },
            retainedVersions: retainedVersions)
    }
}

extension ListContent {
    /// Reads content written by ``write(into:)``, as storage keeps it.
    /// - Throws: ``ListError`` when the value is not stored list content.
    public init(snapshot value: JSONValue) throws(ListError) {
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
                cells.append(Cell(id: cellID, kind: kind, content: cell["content"].map(CellContent.init) ?? .null))
            }
            sections.append(ListSection(id: id, items: cells))
        }
        try self.init(sections: sections)
    }
}
