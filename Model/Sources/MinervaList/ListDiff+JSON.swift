public import MinervaJSON

extension ListDiff {
    /// Writes the diff as the contract shows it:
    /// `{"from", "to", "sections": {"deleted", "inserted", "moved", "updated"}, "items": {…}}`.
    /// - Complexity: O(d) in the number of changes.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("from", from)
        writer.field("to", to)
        writer.key("sections")
        writer.beginObject()
        writer.key("deleted")
        writeIndices(deletedSections, into: &writer)
        writer.key("inserted")
        writeIndices(insertedSections, into: &writer)
        writer.key("moved")
        writer.beginArray()
        for move in movedSections {
            writer.beginObject()
            writer.field("from", move.from)
            writer.field("to", move.to)
            writer.endObject()
        }
        writer.endArray()
        writer.key("updated")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.key("items")
        writer.beginObject()
        writer.key("deleted")
        writePositions(deletedItems, into: &writer)
        writer.key("inserted")
        writePositions(insertedItems, into: &writer)
        writer.key("moved")
        writer.beginArray()
        for move in movedItems {
            writer.beginObject()
            writer.key("from")
            writePosition(move.from, into: &writer)
            writer.key("to")
            writePosition(move.to, into: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.key("updated")
        writePositions(updatedItems, into: &writer)
        writer.endObject()
        writer.endObject()
    }

    private func writeIndices(_ indices: [Int], into writer: inout JSONWriter) {
        writer.beginArray()
        for index in indices { writer.int(index) }
        writer.endArray()
    }

    private func writePositions(_ positions: [Position], into writer: inout JSONWriter) {
        writer.beginArray()
        for position in positions { writePosition(position, into: &writer) }
        writer.endArray()
    }

    private func writePosition(_ position: Position, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("section", position.section)
        writer.field("item", position.item)
        writer.endObject()
    }
}

extension ListContent {
    /// Writes the sections as `[{"id", "items": [{"id", "kind", "content"}]}]`.
    /// - Complexity: O(n) in the size of the content.
    public func write(into writer: inout JSONWriter) {
        writer.beginArray()
        for section in sections {
            writer.beginObject()
            writer.field("id", section.id)
            writer.key("items")
            writer.beginArray()
            for cell in section.items {
                writer.beginObject()
                writer.field("id", cell.id)
                writer.field("kind", cell.kind)
                writer.key("content")
                writer.json(cell.content.json)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
    }
}
