public import MinervaCoordinator
public import MinervaJSON
import MinervaList

/// Writes the state document, as `GET /v1/sessions/{id}` answers it: the tree as nested nodes,
/// the navigators, the focus. The server writes every state it answers with it; a client that
/// mirrors a session writes the state its replay made with it, and reads one back with
/// ``SessionState/init(document:app:)``.
public enum StateDocument {
    /// How much of each node's list the document carries (`?lists=`).
    public enum ListDetail: String, CaseIterable, Sendable {
        /// No `list` member.
        case none
        /// `{"version", "count"}`.
        case summary
        /// `{"version", "sections", "diff"}` with the diff from the previous version.
        case full
    }

    /// The state document's bytes.
    /// - Parameters:
    ///   - sessionID: the session's id.
    ///   - state: the session's state.
    ///   - token: the bearer token, only in the answer that creates the session.
    ///   - lists: how much of each list to include.
    ///   - restored: for the answer to a restore, the version it went back to: `restored` names it
    ///     and the nodes whose list came back or did not (its content no longer kept).
    ///   - sizeHint: the size of a document written before: the buffer starts that large (at most
    ///     four times its own estimate), so that a document is written without growing its buffer.
    /// - Complexity: O(n) in the number of nodes (and list cells with `full`).
    public static func encode(
        sessionID: String, state: SessionState, token: String? = nil, lists: ListDetail = .full, restored: RestoreTarget? = nil, sizeHint: Int = 0
    ) -> [UInt8] {
        let tree = state.tree
        let estimate = 256 + tree.nodes.count * 160
        var writer = JSONWriter(capacity: max(estimate, min(sizeHint, 4 * estimate)))
        writer.beginObject()
        writer.field("id", sessionID)
        if let token { writer.field("token", token) }
        writer.field("version", state.version)
        writer.field("layout", tree.layout.rawValue)
        writer.field("flow", tree.flow)
        if let overlay = tree.overlay { writer.field("overlay", overlay) }
        if tree.layout == .split {
            writer.field("sizeClass", tree.sizeClass.rawValue)
            writer.field("displayMode", tree.displayMode.rawValue)
            writer.field("collapsed", tree.collapsed)
            writer.key("compactStack")
            writer.beginArray()
            for node in tree.compactStack { writer.string(node) }
            writer.endArray()
        } else if tree.sizeClass != .regular {
            writer.field("sizeClass", tree.sizeClass.rawValue)
        }
        writer.field("appVersion", state.appVersion)
        writer.field("focus", state.focus)
        tree.idCounters.writeFields(into: &writer)
        writer.key("root")
        writeNode(tree.rootID, of: tree, lists: lists == .none ? [:] : state.lists, detail: lists, into: &writer)
        writer.key("navigators")
        writer.beginArray()
        for id in tree.navigatorOrder {
            guard let navigator = tree.navigators[id] else { continue }
            writeNavigator(navigator, of: tree, into: &writer)
        }
        writer.endArray()
        writer.key("tabs")
        if let tabs = tree.tabs, let selected = tree.selectedTab {
            writer.beginObject()
            writer.field("selected", selected)
            writer.field("form", (tree.tabsForm ?? .tabBar).rawValue)
            writer.key("items")
            writer.beginArray()
            for tab in tabs {
                writer.beginObject()
                writer.field("id", tab.id)
                writer.field("navigator", CoordinatorTree.navigatorID(forTab: tab.id).rawValue)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("flags")
        writer.beginArray()
        for flag in tree.flags.sorted() { writer.string(flag) }
        writer.endArray()
        let unknownScreens = tree.unknownScreens
        if !unknownScreens.isEmpty {
            writer.key("unknownScreens")
            writer.beginArray()
            for screen in unknownScreens { writer.string(screen) }
            writer.endArray()
        }
        writer.key("pending")
        write(tree.pending, into: &writer)
        if !tree.heldLinks.isEmpty {
            writer.key("heldLinks")
            writer.beginArray()
            for url in tree.heldLinks { writer.string(url) }
            writer.endArray()
        }
        if let restored { write(restored, state: state, into: &writer) }
        if !state.devices.isEmpty {
            writer.key("devices")
            DeviceMark.write(state.devices, into: &writer)
        }
        if !state.experiments.isEmpty {
            writer.key("experiments")
            ExperimentMembership.write(state.experiments, into: &writer)
        }
        writer.field("lastEvent", state.lastEvent)
        writer.endObject()
        return writer.bytes
    }

    private static func writeNode(
        _ id: NodeID, of tree: CoordinatorTree, lists: [NodeID: ListHistory], detail: ListDetail, into writer: inout JSONWriter
    ) {
        guard let node = tree.nodes[id] else { return }
        writer.beginObject()
        writer.field("id", id)
        writer.field("screen", node.screen)
        if let title = node.title { writer.field("title", title) }
        writer.key("params")
        writer.value(.object(node.params))
        writer.key("presentation")
        node.presentation.write(into: &writer)
        node.settings?.writeMembers(into: &writer)
        writer.field("navigator", node.navigator?.rawValue)
        if let ui = node.ui {
            writer.key("ui")
            writer.value(.object(ui))
        }
        if let results = node.results { write(results, into: &writer) }
        writer.key("children")
        writer.beginArray()
        for child in node.children {
            writeNode(child, of: tree, lists: lists, detail: detail, into: &writer)
        }
        writer.endArray()
        if let history = lists[id] {
            writer.key("list")
            writer.beginObject()
            writer.field("version", history.version)
            if detail == .summary {
                writer.field("count", history.current.itemCount)
            } else {
                writer.key("sections")
                history.current.write(into: &writer)
                writer.key("diff")
                history.latestDiff.write(into: &writer)
            }
            writer.endObject()
        }
        writer.endObject()
    }

    /// `"results": {"<screen>": {"status", "value"?, "version"}}`: what flows left on a node.
    private static func write(_ results: [String: FlowResult], into writer: inout JSONWriter) {
        writer.key("results")
        writer.beginObject()
        for (screen, result) in results.sorted(by: { $0.key < $1.key }) {
            writer.key(string: screen)
            writer.beginObject()
            result.writeMembers(into: &writer)
            writer.endObject()
        }
        writer.endObject()
    }

    /// `"restored": {"version", "lists": [node…], "listsDropped": [node…]}`.
    private static func write(_ restored: RestoreTarget, state: SessionState, into writer: inout JSONWriter) {
        writer.key("restored")
        writer.beginObject()
        writer.field("version", restored.version)
        let nodes = restored.listNodes
        for (name, came) in [("lists", true), ("listsDropped", false)] as [(StaticString, Bool)] {
            writer.key(name)
            writer.beginArray()
            for node in nodes where (state.lists[node] != nil) == came { writer.string(node) }
            writer.endArray()
        }
        writer.endObject()
    }

    /// A guarded target as `{"operation", "steps", "flow"}` (the guard's node; and `"navigator"`,
    /// `"replacesStack"` for a set-root), a deep link as `{"operation": "deepLink", "url", "flow"}`
    /// (the flow's name), or `null`.
    public static func write(_ pending: Pending?, into writer: inout JSONWriter) {
        switch pending {
        case nil:
            writer.null()
        case .link(let link):
            writer.beginObject()
            writer.field("operation", PendingLink.operation)
            writer.field("url", link.url)
            writer.field("flow", link.flow)
            writer.endObject()
        case .guarded(let target):
            write(target, into: &writer)
        }
    }

    private static func write(_ pending: PendingNavigation, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("operation", pending.operation.rawValue)
        if let navigator = pending.navigator {
            writer.field("navigator", navigator.description)
            writer.field("replacesStack", pending.replacesStack)
        }
        writer.key("steps")
        writer.beginArray()
        for step in pending.steps { step.write(into: &writer) }
        writer.endArray()
        writer.field("flow", pending.guardNode)
        writer.endObject()
    }

    private static func writeNavigator(_ navigator: Navigator, of tree: CoordinatorTree, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", navigator.id.rawValue)
        writer.key("stack")
        writer.beginArray()
        for node in navigator.stack { writer.string(node) }
        writer.endArray()
        let presented = navigator.presentedNavigator.flatMap { tree.navigators[$0]?.stack.first }
        writer.field("presented", presented)
        writer.field("parent", navigator.parent?.rawValue)
        writer.field("embedded", navigator.embedded)
        writer.endObject()
    }
}
