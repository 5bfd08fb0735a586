import MinervaJSON
import MinervaList

/// Reads `{"sections": [{"id", "items": [{"id", "kind", "content"}]}]}`; type errors are `400`.
enum ListBody {
    /// The sections of a list PUT, not yet checked for duplicate ids.
    static func sections(_ bytes: [UInt8]) throws(APIError) -> [ListSection] {
        let body = try RequestBody(bytes, required: true)
        guard let sections = try body.objects("sections") else { throw .invalidRequest("field 'sections' is required") }
        var result: [ListSection] = []
        result.reserveCapacity(sections.count)
        for (sectionIndex, section) in sections.enumerated() {
            let id = try section.requiredString("id", path: "sections[\(sectionIndex)]")
            guard let items = try section.objects("items", path: "sections[\(sectionIndex)]") else {
                throw .invalidRequest("field 'sections[\(sectionIndex)].items' is required")
            }
            var cells: [Cell] = []
            cells.reserveCapacity(items.count)
            for (itemIndex, item) in items.enumerated() {
                cells.append(
                    Cell(
                        id: try item.requiredString("id", path: "sections[\(sectionIndex)].items[\(itemIndex)]"),
                        kind: try item.requiredString("kind", path: "sections[\(sectionIndex)].items[\(itemIndex)]"),
                        content: item.value("content").map(CellContent.init) ?? .null))
            }
            result.append(ListSection(id: id, items: cells))
        }
        return result
    }
}
