import MinervaCoordinator
import MinervaJSON

/// Writes the state document of API.md: the tree as nested nodes, the navigators, the focus.
enum StateDocument {
    /// The state document's bytes.
    /// - Parameters:
    ///   - sessionID: the session's id.
    ///   - state: the session's state.
    ///   - token: the bearer token, only in the answer that creates the session.
    /// - Complexity: O(n) in the number of nodes.
    static func encode(sessionID: String, state: SessionState, token: String? = nil) -> [UInt8] {
        let tree = state.tree
        var writer = JSONWriter(capacity: 256 + tree.nodes.count * 160)
        writer.beginObject()
        writer.field("id", sessionID)
        if let token { writer.field("token", token) }
        writer.field("version", state.version)
        writer.field("layout", tree.layout.rawValue)
        writer.field("focus", tree.focus.description)
        writer.key("root")
        writeNode(tree.rootID, of: tree, into: &writer)
        writer.key("navigators")
        writer.beginArray()
        for id in tree.navigatorOrder {
            writeNavigator(tree.navigators[id]!, of: tree, into: &writer)
        }
        writer.endArray()
        writer.key("tabs")
        writer.null()
        writer.key("flags")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private static func writeNode(_ id: NodeID, of tree: CoordinatorTree, into writer: inout JSONWriter) {
        let node = tree.nodes[id]!
        writer.beginObject()
        writer.field("id", id.description)
        writer.field("screen", node.screen)
        writer.key("params")
        writer.value(.object(node.params))
        writer.key("presentation")
        writer.beginObject()
        writer.field("kind", node.presentation.kind.rawValue)
        if let style = node.presentation.style { writer.field("style", style.rawValue) }
        writer.endObject()
        writer.field("navigator", node.navigator?.rawValue)
        writer.key("children")
        writer.beginArray()
        for child in node.children {
            writeNode(child, of: tree, into: &writer)
        }
        writer.endArray()
        writer.endObject()
    }

    private static func writeNavigator(_ navigator: Navigator, of tree: CoordinatorTree, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", navigator.id.rawValue)
        writer.key("stack")
        writer.beginArray()
        for node in navigator.stack { writer.string(node.description) }
        writer.endArray()
        let presented = navigator.presentedNavigator.flatMap { tree.navigators[$0]?.stack.first }
        writer.field("presented", presented?.description)
        writer.field("parent", navigator.parent?.rawValue)
        writer.field("embedded", navigator.embedded)
        writer.endObject()
    }
}
