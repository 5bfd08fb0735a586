public import MinervaJSON
import MinervaList

/// The operations on one node, each at `/v1/sessions/{id}/nodes/{node}/…` with a body of its own
/// (the raw value is the path's segment after the node).
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

    /// The fields the operation's body may carry (`ui` takes any: it is the node's UI state;
    /// `results` takes no body).
    public var bodyKeys: JSONKeys {
        switch self {
        case .params: ["set", "unset"]
        case .ui, .results: []
        case .presentation: ["selected", "dismissible"]
        case .list: ["sections"]
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
        }
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
                items: try section.objects("items", keys: itemKeys) { item throws(JSONReadError) in
                    Cell(id: try item.string("id"), kind: try item.string("kind"), content: item.value("content").map(CellContent.init) ?? .null)
                })
        }
    }
}
