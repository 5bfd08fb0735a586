public import MinervaJSON

extension PresentationSettings {
    /// The members of a `sheet` object.
    public static let sheetKeys: JSONKeys = ["detents", "selected", "grabber", "undimmedUpTo"]

    /// Reads a `sheet` object's shape: `{"detents": ["medium", "large", {"id", "height"}],
    /// "selected"?, "grabber"?, "undimmedUpTo"?}`; what the values mean is ``Sheet/problem``'s.
    /// - Throws: ``JSONReadError`` for a wrong type or member.
    public static func sheet(_ reader: JSONObjectReader) throws(JSONReadError) -> Sheet {
        var detents: [Detent] = []
        for (index, element) in try reader.array("detents").enumerated() {
            switch element {
            case .string(let id) where id == "medium" || id == "large":
                detents.append(Detent(id: id, height: nil))
            case .object(let members):
                guard members.keys.allSatisfy({ $0 == "id" || $0 == "height" }), case .string(let id)? = members["id"], let height = members["height"].flatMap(number)
                else {
                    throw reader.error("an app's own detent is {\"id\": a name, \"height\": points}", at: "detents", .index(index))
                }
                guard !id.isEmpty else { throw reader.error("must not be empty", at: "detents", .index(index), .key("id")) }
                detents.append(Detent(id: id, height: height))
            default:
                throw reader.error("must be \"medium\", \"large\" or {\"id\", \"height\"}", at: "detents", .index(index))
            }
        }
        return Sheet(
            detents: detents, selected: try reader.optionalString("selected"), grabber: try reader.optionalBool("grabber"),
            undimmedUpTo: try reader.optionalString("undimmedUpTo"))
    }

    /// The members of an `anchor` object.
    static let anchorKeys: JSONKeys = ["item", "element", "rect"]

    /// Reads a popover's `anchor`: `{"item": "cell-id"}` or `{"element": "name", "rect": [x, y, w, h]}`.
    /// - Throws: ``JSONReadError`` for any other shape.
    public static func anchor(_ reader: JSONObjectReader) throws(JSONReadError) -> JSONValue {
        if let item = try reader.optionalString("item") {
            guard !reader.contains("element"), !reader.contains("rect") else {
                throw reader.error("give either 'item' or 'element' with 'rect', not both", at: "item")
            }
            return .object(["item": .string(item)])
        }
        let element = try reader.string("element")
        let rect = try reader.array("rect")
        guard rect.count == 4, rect.allSatisfy({ number($0)?.isFinite == true }) else {
            throw reader.error("must be four numbers: [x, y, width, height]", at: "rect")
        }
        return .object(["element": .string(element), "rect": .array(rect)])
    }

    /// A JSON number as a `Double`.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// Writes the settings' members into an open object (a state document's node, an `added`
    /// event, a snapshot): `sheet`, `anchor`, `dismissible` when set.
    public func writeMembers(into writer: inout JSONWriter) {
        if let sheet {
            writer.key("sheet")
            sheet.write(into: &writer)
        }
        if let anchor {
            writer.key("anchor")
            writer.value(anchor)
        }
        if let dismissible { writer.field("dismissible", dismissible) }
    }

    /// Reads the members ``writeMembers(into:)`` wrote from an object that holds them.
    public init(members reader: JSONObjectReader) throws(JSONReadError) {
        self.init(
            sheet: try reader.optionalObject("sheet", keys: Self.sheetKeys, Self.sheet),
            anchor: try reader.optionalObject("anchor", keys: Self.anchorKeys, Self.anchor), dismissible: try reader.optionalBool("dismissible"))
    }
}

extension PresentationSettings.Sheet {
    /// Writes `{"detents", "selected"?, "grabber"?, "undimmedUpTo"?}`.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("detents")
        writer.beginArray()
        for detent in detents {
            if let height = detent.height {
                writer.beginObject()
                writer.field("id", detent.id)
                writer.key("height")
                writer.value(height == height.rounded() && abs(height) < 1e15 ? .int(Int(height)) : .double(height))
                writer.endObject()
            } else {
                writer.string(detent.id)
            }
        }
        writer.endArray()
        if let selected { writer.field("selected", selected) }
        if let grabber { writer.field("grabber", grabber) }
        if let undimmedUpTo { writer.field("undimmedUpTo", undimmedUpTo) }
        writer.endObject()
    }
}
