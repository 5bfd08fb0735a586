import MinervaJSON
import MinervaList

/// Reads `{"sections": [{"id", "items": [{"id", "kind", "content"}]}]}`: the list, each section
/// and each item refuse fields they do not know; `content` is free-form.
enum ListBody {
    private static let list: JSONKeys = ["sections"]
    private static let section: JSONKeys = ["id", "items"]
    private static let item: JSONKeys = ["id", "kind", "content"]

    /// The sections of a list PUT, not yet checked for duplicate ids.
    /// - Throws: `400` for a missing or unknown field or a wrong JSON type, naming its path
    ///   (`sections[0].items[2].id`).
    static func sections(_ bytes: [UInt8]) throws(APIError) -> [ListSection] {
        try readBody(bytes, required: true, keys: list) { body throws(JSONReadError) in
            try body.objects("sections", keys: section) { section throws(JSONReadError) in
                ListSection(
                    id: try section.string("id"),
                    items: try section.objects("items", keys: item) { item throws(JSONReadError) in
                        Cell(id: try item.string("id"), kind: try item.string("kind"), content: item.value("content").map(CellContent.init) ?? .null)
                    })
            }
        }
    }
}
