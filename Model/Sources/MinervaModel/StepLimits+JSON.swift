public import MinervaJSON

extension StepLimits {
    /// The members of the limits' JSON object, as `GET /v1/server` answers them.
    public static let documentKeys: JSONKeys = [
        "maxNodes", "maxParamBytes", "maxUIBytes", "maxListItems", "maxListBytes", "maxSessionBytes", "listHistory", "listHistoryBudget",
    ]

    /// Writes the limits as a JSON object of ``documentKeys``.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("maxNodes", maxNodes)
        writer.field("maxParamBytes", maxParamBytes)
        writer.field("maxUIBytes", maxUIBytes)
        writer.field("maxListItems", maxListItems)
        writer.field("maxListBytes", maxListBytes)
        writer.field("maxSessionBytes", maxSessionBytes)
        writer.field("listHistory", listHistory)
        writer.field("listHistoryBudget", listHistoryBudget)
        writer.endObject()
    }

    /// Reads limits as ``write(into:)`` writes them: what a client checks its own changes against.
    /// - Throws: ``JSONReadError`` when a member is missing or not a whole number.
    public init(document reader: JSONObjectReader) throws(JSONReadError) {
        self.init(
            maxListItems: try reader.int("maxListItems"), maxListBytes: try reader.int("maxListBytes"), maxNodes: try reader.int("maxNodes"),
            maxParamBytes: try reader.int("maxParamBytes"), maxUIBytes: try reader.int("maxUIBytes"),
            maxSessionBytes: try reader.int("maxSessionBytes"), listHistory: try reader.int("listHistory"),
            listHistoryBudget: try reader.int("listHistoryBudget"))
    }
}
