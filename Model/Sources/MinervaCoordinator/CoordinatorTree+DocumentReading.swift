public import MinervaJSON

extension CoordinatorTree {
    /// The members of a state document the tree reads (``init(document:app:)``); the others
    /// (the session's id, version, focus, …) are the session's, and lists are read apart.
    public static let documentKeys: JSONKeys = [
        "id", "token", "version", "layout", "flow", "sizeClass", "displayMode", "collapsed", "compactStack", "appVersion", "focus", "root", "navigators",
        "tabs", "flags", "unknownScreens", "pending", "heldLinks", "overlay", "restored", "lastEvent", "nextNode", "nextNavigator", "devices", "experiments",
    ]
    /// The members of a state document's node.
    public static let documentNodeKeys: JSONKeys = [
        "id", "screen", "title", "params", "presentation", "sheet", "anchor", "dismissible", "navigator", "ui", "results", "children", "list",
    ]
    static let documentNavigatorKeys: JSONKeys = ["id", "stack", "presented", "parent", "embedded"]
    static let documentTabsKeys: JSONKeys = ["selected", "items", "form"]
    static let documentResultKeys: JSONKeys = ["status", "value", "version"]

    /// Reads a tree back from a state document (as ``StateDocument`` writes it and
    /// `GET /v1/sessions/{id}` answers it), run with `app`: what a client that mirrors a session
    /// holds. The id counters, which the document does not show, continue after the highest ids it
    /// shows.
    /// - Parameter reader: the document, over ``documentKeys``.
    /// - Throws: ``JSONReadError`` when the document is not one, or does not make a valid tree.
    public init(document reader: JSONObjectReader, app: AppDescription) throws(JSONReadError) {
        self.app = app
        rootID = NodeID(0)
        nodes = [:]
        navigators = [:]
        navigatorOrder = []
        layout = try reader.enumValue("layout", as: Layout.self)
        flow = try reader.string("flow")
        sizeClass = try reader.optionalEnumValue("sizeClass", as: SizeClass.self) ?? .regular
        displayMode = try reader.optionalEnumValue("displayMode", as: SplitDisplayMode.self) ?? .automatic
        heldLinks = try reader.optionalStrings("heldLinks") ?? []
        overlay = try reader.optionalString("overlay")
        flags = Set(try reader.strings("flags"))
        selectedTab = try reader.optionalObject("tabs", keys: Self.documentTabsKeys) { tabs throws(JSONReadError) in try tabs.string("selected") }
        pending = try reader.optionalObject("pending", keys: Pending.documentKeys) { pending throws(JSONReadError) in
            try Pending(document: pending, app: app)
        }
        try reader.object("root", keys: Self.documentNodeKeys) { root throws(JSONReadError) in try readNode(root, parent: nil) }
        var presentedRoots: [NavigatorID: NodeID] = [:]
        for (navigator, presented) in try reader.objects("navigators", keys: Self.documentNavigatorKeys, readNavigator) {
            addNavigator(navigator)
            if let presented { presentedRoots[navigator.id] = presented }
        }
        for (navigator, root) in presentedRoots { navigators[navigator]?.presentedNavigator = nodes[root]?.navigator }
        nextNodeNumber = try reader.int("nextNode")
        nextNavigatorNumber = try reader.int("nextNavigator")
        restoredUnknownScreens = reader.contains("unknownScreens")
        if let violation = invariantViolation() { throw reader.error("is not a valid tree: \(violation)", at: .key("root")) }
    }

    /// Reads a node of the document and the subtree below it.
    private mutating func readNode(_ node: JSONObjectReader, parent: NodeID?) throws(JSONReadError) {
        let id = try node.nodeID("id")
        var children: [JSONObjectReader] = []
        let childIDs = try node.objects("children", keys: Self.documentNodeKeys) { child throws(JSONReadError) in
            children.append(child)
            return try child.nodeID("id")
        }
        nodes[id] = Node(
            id: id, screen: try node.string("screen"), params: try node.optionalObject("params") ?? [:],
            presentation: try node.object("presentation", keys: Presentation.documentKeys, Presentation.init(reader:)),
            navigator: try node.optionalString("navigator").map { NavigatorID($0) }, parent: parent, children: childIDs,
            title: try node.optionalString("title"))
        let settings = try PresentationSettings(members: node)
        if !settings.isEmpty { nodes[id]?.holdings.settings = settings }
        if let ui = try node.optionalObject("ui"), !ui.isEmpty { nodes[id]?.holdings.ui = ui }
        if let held = try node.optionalObject("results") {
            var byScreen: [String: FlowResult] = [:]
            for (screen, value) in held {
                let result = try JSONObjectReader(value, keys: Self.documentResultKeys)
                byScreen[screen] = FlowResult(
                    status: try result.enumValue("status", as: FlowStatus.self), value: result.value("value"), version: try result.int("version"))
            }
            if !byScreen.isEmpty { nodes[id]?.holdings.results = byScreen }
        }
        for child in children { try readNode(child, parent: id) }
    }

    /// Reads a navigator of the document, and the root of what it presents.
    private func readNavigator(_ navigator: JSONObjectReader) throws(JSONReadError) -> (Navigator, presented: NodeID?) {
        let id = NavigatorID(try navigator.string("id"))
        let stack = try navigator.nodeIDs("stack")
        let parent = try navigator.optionalString("parent").map { NavigatorID($0) }
        let role: Navigator.Role =
            if parent != nil {
                .presented(stack.first.flatMap { nodes[$0]?.presentation.style } ?? .automatic)
            } else {
                .base(rootKind: id.baseRootKind)
            }
        return (
            Navigator(id: id, stack: stack, presentedNavigator: nil, parent: parent, embedded: try navigator.bool("embedded"), role: role),
            try navigator.optionalNodeID("presented")
        )
    }
}
