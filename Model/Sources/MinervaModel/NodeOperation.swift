public import MinervaJSON
import MinervaList

/// The operations on one node, each at `/v1/sessions/{id}/nodes/{node}/…` with a body of its own
/// (the raw value is the path's segment after the node, but for a list patch, which `PATCH`es
/// the list's path).
public enum NodeOperation: String, CaseIterable, Sendable {
    /// `PATCH …/params {"set"?, "unset"?}`: changes the node's params in place.
    case params
    /// `PUT …/ui {…}`: replaces the node's UI state (any members).
    case ui
    /// `POST …/presentation {"selected"?, "dismissible"?}`: a sheet's detent, or whether the user may swipe it away.
    case presentation
    /// `DELETE …/results/{screen}` (no body): the parent's client took a flow's result.
    case results
    /// `PUT …/list {"sections"}`: replaces the node's list.
    case list
    /// `PATCH …/list {"delete"?, "upsert"?, "move"?}`: changes some of the list's cells, by id.
    case listPatch = "list-patch"

    /// The path's segment after the node.
    public var segment: String {
        self == .listPatch ? "list" : rawValue
    }

    /// The fields the operation's body may carry (`ui` takes any: it is the node's UI state;
    /// `results` takes no body).
    public var bodyKeys: JSONKeys {
        switch self {
        case .params: ["set", "unset"]
        case .ui, .results: []
        case .presentation: ["selected", "dismissible"]
        case .list: ["sections"]
        case .listPatch: ["delete", "upsert", "move"]
        }
    }

    /// Whether the operation needs a body (every one but `results`, which takes none).
    public var requiresBody: Bool {
        self != .results
    }
}

extension SessionCommand {
    /// Reads a node operation as the API takes it: the node of its path, the screen of a
    /// `results` path, and its body (a JSON object of ``NodeOperation/bodyKeys``, any members for
    /// `ui`). Only the body's shape is checked here; values when the step runs it.
    /// - Parameters:
    ///   - node: the node id of the path, as sent.
    ///   - screen: the screen of a `results` path; unused by the others.
    ///   - body: the body (`{}` when none was sent); ignored by `results`.
    /// - Throws: ``JSONReadError`` for a body that is not an object, a missing field, a wrong JSON
    ///   type or an unknown field.
    public init(_ operation: NodeOperation, node: String, screen: String?, body value: JSONValue) throws(JSONReadError) {
        switch operation {
        case .params:
            let body = try JSONObjectReader(value, keys: operation.bodyKeys)
            self = .updateParams(node: node, set: try body.optionalObject("set") ?? [:], unset: try body.optionalStrings("unset") ?? [])
        case .ui:
            guard case .object(let ui) = value else { throw .wrongType([], expected: "an object", found: value) }
            self = .putUI(node: node, ui: ui)
        case .presentation:
            let body = try JSONObjectReader(value, keys: operation.bodyKeys)
            let selected = try body.optionalString("selected")
            let dismissible = try body.optionalBool("dismissible")
            guard selected != nil || dismissible != nil else { throw body.error("give 'selected' (a detent), 'dismissible', or both") }
            self = .changePresentation(node: node, selected: selected, dismissible: dismissible)
        case .results:
            guard let screen else { throw .invalid([], "a result is taken by the screen of its flow (…/results/{screen})") }
            self = .consumeResult(node: node, screen: screen)
        case .list:
            self = .putList(node: node, sections: try Self.sections(JSONObjectReader(value, keys: operation.bodyKeys)))
        case .listPatch:
            self = .patchList(node: node, patch: try Self.patch(JSONObjectReader(value, keys: operation.bodyKeys)))
        }
    }

    /// The members of a patch's upsert and move, and of a cell.
    private static let upsertKeys: JSONKeys = ["cell", "section", "before"]
    private static let moveKeys: JSONKeys = ["id", "section", "before"]

    /// `{"delete"?: [id], "upsert"?: [{"cell", "section"?, "before"?}], "move"?: [{"id", "section"?, "before"?}]}`,
    /// each not empty when given (a patch with none, or a move without a place, is the step's refusal).
    static func patch(_ body: JSONObjectReader) throws(JSONReadError) -> ListPatch {
        let patch = ListPatch(
            delete: try body.optionalStrings("delete") ?? [],
            upsert: try body.optionalObjects("upsert", keys: upsertKeys) { upsert throws(JSONReadError) in
                ListPatch.Upsert(
                    cell: try upsert.object("cell", keys: itemKeys) { item throws(JSONReadError) in try cell(item) },
                    placement: try placement(upsert))
            } ?? [],
            move: try body.optionalObjects("move", keys: moveKeys) { move throws(JSONReadError) in
                ListPatch.Move(id: try move.string("id"), placement: try placement(move))
            } ?? [])
        for (key, count) in [("delete", patch.delete.count), ("upsert", patch.upsert.count), ("move", patch.move.count)]
        where count == 0 && body.value(key) != nil {
            throw body.error("'\(key)' is empty: leave it out")
        }
        return patch
    }

    /// Where an upsert or a move puts its cell, when it says.
    private static func placement(_ reader: JSONObjectReader) throws(JSONReadError) -> ListPatch.Placement? {
        let section = try reader.optionalString("section"), before = try reader.optionalString("before")
        return section == nil && before == nil ? nil : ListPatch.Placement(section: section, before: before)
    }

    /// A cell: `{"id", "kind", "content"?}`.
    private static func cell(_ item: JSONObjectReader) throws(JSONReadError) -> Cell {
        Cell(id: try item.string("id"), kind: try item.string("kind"), content: item.value("content").map(CellContent.init) ?? .null)
    }

    /// The members of a list's section and of its items.
    private static let sectionKeys: JSONKeys = ["id", "items"]
    private static let itemKeys: JSONKeys = ["id", "kind", "content"]

    /// `{"sections": [{"id", "items": [{"id", "kind", "content"}]}]}`, each level refusing fields
    /// it does not know (`content` is free-form), not yet checked for duplicate ids.
    static func sections(_ body: JSONObjectReader) throws(JSONReadError) -> [ListSection] {
        try body.objects("sections", keys: sectionKeys) { section throws(JSONReadError) in
            ListSection(
                id: try section.string("id"),
                items: try section.objects("items", keys: itemKeys) { item throws(JSONReadError) in try cell(item) })
        }
    }
}
