import OpenAPIRuntime

extension ChangeRequest {
    /// `PATCH …/nodes/{node}/params`: changes a node's params in place (see ``MinervaSession/updateParams(of:set:)``).
    /// - Throws: `EncodingError` for params that are not JSON.
    public static func updateParams(of node: String, set: Params) throws -> Self {
        Self(body: .params(node: node, .init(set: try OpenAPIObjectContainer(set))))
    }

    /// `PUT …/nodes/{node}/ui`: replaces a node's UI state (see ``MinervaSession/setUI(_:of:)``).
    /// - Throws: `EncodingError` for a UI state that is not JSON.
    public static func setUI(_ ui: [String: JSONValue], of node: String) throws -> Self {
        Self(body: .ui(node: node, try OpenAPIObjectContainer(ui)))
    }

    /// `POST …/nodes/{node}/presentation {"selected"}`: a sheet's detent, as the user moved it
    /// (see ``MinervaSession/selectDetent(_:of:)``).
    public static func selectDetent(_ detent: String, of node: String) -> Self {
        Self(body: .presentation(node: node, .init(selected: detent)))
    }

    /// `POST …/nodes/{node}/presentation {"dismissible"}`: whether the user may swipe a presented
    /// node away (see ``MinervaSession/setDismissible(_:of:)``).
    public static func setDismissible(_ dismissible: Bool, of node: String) -> Self {
        Self(body: .presentation(node: node, .init(dismissible: dismissible)))
    }

    /// `DELETE …/nodes/{node}/results/{screen}`: the app took the result a flow left (see
    /// ``MinervaSession/takeResult(of:from:)``).
    public static func takeResult(of screen: String, from node: String) -> Self {
        Self(body: .takeResult(node: node, screen: screen))
    }

    /// `PUT …/nodes/{node}/list`: replaces a node's list (see ``MinervaSession/putList(_:on:)``).
    public static func putList(_ sections: [ListSection], on node: String) -> Self {
        Self(body: .list(node: node, .init(sections: sections)))
    }

    /// `PATCH …/nodes/{node}/list`: changes some of a node's cells by id (see ``MinervaSession/patchList(_:on:)``).
    public static func patchList(_ patch: ListPatch, on node: String) -> Self {
        Self(body: .listPatch(node: node, patch))
    }
}
