import MinervaJSON

extension CoordinatorTree {
    /// The members of a tree snapshot; `lastSeq` is read from snapshots written before the
    /// session core kept the event counter, and ignored.
    static let snapshotKeys: JSONKeys = [
        "layout", "flow", "nextNode", "nextNavigator", "lastSeq", "flags", "nodes", "navigators", "selectedTab", "pending", "ui", "results", "presentations", "sizeClass",
        "displayMode", "heldLinks", "overlay",
    ]
    static let presentationKeys: JSONKeys = ["node", "sheet", "anchor", "dismissible"]
    static let uiKeys: JSONKeys = ["node", "ui"]
    static let resultKeys: JSONKeys = ["node", "screen", "status", "value", "version"]
    static let nodeKeys: JSONKeys = ["id", "screen", "params", "kind", "children", "style", "navigator", "parent"]
    static let navigatorKeys: JSONKeys = ["id", "stack", "embedded", "rootKind", "presentedStyle", "presentedNavigator", "parent"]

    /// One node of a snapshot (its title is the app's, set once the app is known).
    static func node(_ node: JSONObjectReader) throws(JSONReadError) -> Node {
        Node(
            id: try node.nodeID("id"), screen: try node.string("screen"), params: try node.optionalObject("params") ?? [:],
            presentation: Presentation(try node.enumValue("kind", as: Presentation.Kind.self), style: try node.optionalEnumValue("style", as: ModalStyle.self)),
            navigator: try node.optionalString("navigator").map { NavigatorID($0) },
            parent: try node.optionalNodeID("parent"), children: try node.nodeIDs("children"))
    }

    /// One result of a snapshot: its parent, its flow's screen and the result.
    static func result(_ result: JSONObjectReader) throws(JSONReadError) -> (node: NodeID, screen: String, result: FlowResult) {
        (
            try result.nodeID("node"), try result.string("screen"),
            FlowResult(status: try result.enumValue("status", as: FlowStatus.self), value: result.value("value"), version: try result.int("version"))
        )
    }

    /// One navigator of a snapshot.
    static func navigator(_ navigator: JSONObjectReader) throws(JSONReadError) -> Navigator {
        let role: Navigator.Role =
            if let style = try navigator.optionalEnumValue("presentedStyle", as: ModalStyle.self) {
                .presented(style)
            } else {
                .base(rootKind: try navigator.enumValue("rootKind", as: Presentation.Kind.self))
            }
        return Navigator(
            id: NavigatorID(try navigator.string("id")), stack: try navigator.nodeIDs("stack"),
            presentedNavigator: try navigator.optionalString("presentedNavigator").map { NavigatorID($0) },
            parent: try navigator.optionalString("parent").map { NavigatorID($0) }, embedded: try navigator.bool("embedded"), role: role)
    }
}
