public import MinervaJSON

extension CoordinatorTree {
    /// Writes the whole tree as JSON, counters included, for storage: written on every
    /// mutation of a stored session, so straight into the writer.
    /// ``init(snapshot:app:)`` reads it back into an equal tree.
    /// - Complexity: O(n) in the number of nodes.
    public func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("layout", layout.rawValue)
        // Only an app of flows names its flow: the release before them reads the rest.
        if app.declaresFlows { writer.field("flow", flow) }
        writer.field("nextNode", nextNodeNumber)
        writer.field("nextNavigator", nextNavigatorNumber)
        writer.key("flags")
        writer.beginArray()
        for flag in flags.sorted() { writer.string(flag) }
        writer.endArray()
        writer.key("nodes")
        writer.beginArray()
        let ids = nodes.keys.sorted()
        for id in ids { writeSnapshot(of: self[node: id], into: &writer) }
        writer.endArray()
        writer.key("navigators")
        writer.beginArray()
        for id in navigatorOrder { writeSnapshot(of: self[navigator: id], into: &writer) }
        writer.endArray()
        if let selectedTab { writer.field("selectedTab", selectedTab) }
        if sizeClass != .regular { writer.field("sizeClass", sizeClass.rawValue) }
        if displayMode != .automatic { writer.field("displayMode", displayMode.rawValue) }
        if let overlay { writer.field("overlay", overlay) }
        if !heldLinks.isEmpty {
            writer.key("heldLinks")
            writer.beginArray()
            for url in heldLinks { writer.string(url) }
            writer.endArray()
        }
        if let pending {
            writer.key("pending")
            pending.writeSnapshot(into: &writer)
        }
        writeSnapshot("ui", of: ids, \.ui, into: &writer) { ui, writer in
            writer.key("ui")
            writer.value(.object(ui))
        }
        writeSnapshot("presentations", of: ids, \.settings, into: &writer) { settings, writer in settings.writeMembers(into: &writer) }
        let holdingResults = ids.filter { self[node: $0].results != nil }
        if !holdingResults.isEmpty {
            writer.key("results")
            writer.beginArray()
            for id in holdingResults {
                for (screen, result) in (self[node: id].results ?? [:]).sorted(by: { $0.key < $1.key }) {
                    writer.beginObject()
                    writer.field("node", id)
                    writer.field("screen", screen)
                    result.writeMembers(into: &writer)
                    writer.endObject()
                }
            }
            writer.endArray()
        }
        writer.endObject()
    }

    /// The snapshot's bytes (``writeSnapshot(into:)``).
    public var snapshotBytes: [UInt8] {
        var writer = JSONWriter(capacity: 256 + nodes.count * 128)
        writeSnapshot(into: &writer)
        return writer.bytes
    }

    /// Reads a tree back from its snapshot (``writeSnapshot(into:)``). Screens the app no longer
    /// declares are kept (see ``unknownScreens``), so a session survives a changed app description.
    /// - Throws: ``SnapshotError`` when the value is not a snapshot or does not make a valid tree.
    public init(snapshot value: JSONValue, app: AppDescription) throws(SnapshotError) {
        self.app = app
        let singleFlow = app.launch[app.launch.count - 1].flow
        rootID = NodeID(0)
        nodes = [:]
        navigators = [:]
        navigatorOrder = []
        // What nodes hold comes in tables of its own, each entry naming its node.
        var holdings: [(node: NodeID, holding: (inout Node.Holdings) -> Void)] = []
        do throws(JSONReadError) {
            let reader = try JSONObjectReader(value, keys: Self.snapshotKeys)
            layout = try reader.enumValue("layout", as: Layout.self)
            // Snapshots written before flows name none: the single-root app's one flow.
            flow = try reader.optionalString("flow") ?? singleFlow
            nextNodeNumber = try reader.int("nextNode")
            nextNavigatorNumber = try reader.int("nextNavigator")
            selectedTab = try reader.optionalString("selectedTab")
            sizeClass = try reader.optionalEnumValue("sizeClass", as: SizeClass.self) ?? .regular
            displayMode = try reader.optionalEnumValue("displayMode", as: SplitDisplayMode.self) ?? .automatic
            heldLinks = try reader.optionalStrings("heldLinks") ?? []
            overlay = try reader.optionalString("overlay")
            flags = Set(try reader.strings("flags"))
            for node in try reader.objects("nodes", keys: Self.nodeKeys, Self.node) { nodes[node.id] = node }
            for navigator in try reader.objects("navigators", keys: Self.navigatorKeys, Self.navigator) { addNavigator(navigator) }
            pending = try reader.optionalObject("pending", keys: Pending.snapshotKeys, Pending.init(reader:))
            for entry in try reader.optionalObjects("ui", keys: Self.uiKeys, { entry throws(JSONReadError) in
                (try entry.nodeID("node"), try entry.object("ui"))
            }) ?? [] where !entry.1.isEmpty {
                holdings.append((entry.0, { $0.ui = entry.1 }))
            }
            for entry in try reader.optionalObjects("presentations", keys: Self.presentationKeys, { entry throws(JSONReadError) in
                (try entry.nodeID("node"), try PresentationSettings(members: entry))
            }) ?? [] where !entry.1.isEmpty {
                holdings.append((entry.0, { $0.settings = entry.1 }))
            }
            for entry in try reader.optionalObjects("results", keys: Self.resultKeys, Self.result) ?? [] {
                holdings.append((entry.node, { $0.results = ($0.results ?? [:]).merging([entry.screen: entry.result]) { _, new in new } }))
            }
        } catch {
            throw SnapshotError(error.description)
        }
        guard nodes[rootID] != nil, navigators.count == navigatorOrder.count else { throw SnapshotError("the snapshot has no app coordinator") }
        if let violation = invariantViolation() { throw SnapshotError("the snapshot is not a valid tree: \(violation)") }
        for (node, holding) in holdings {
            guard nodes[node] != nil else { throw SnapshotError("the snapshot holds UI state or results of nodes it does not hold") }
            holding(&self[node: node].holdings)
        }
        restoredUnknownScreens = nodes.values.contains { $0.id != rootID && app.screens[$0.screen] == nil }
        takeTitles()
    }

    /// The screens of nodes that the app description no longer declares, sorted.
    public var unknownScreens: [String] {
        guard restoredUnknownScreens else { return [] }
        var unknown: Set<String> = []
        for node in nodes.values where node.id != rootID && app.screens[node.screen] == nil {
            unknown.insert(node.screen)
        }
        return unknown.sorted()
    }

    /// Writes a table of what some nodes hold as `"name": [{"node", …members}]`, by node id; nothing
    /// when no node holds any.
    /// - Parameter ids: every node's id, sorted.
    private func writeSnapshot<Value>(
        _ name: StaticString, of ids: [NodeID], _ holding: KeyPath<Node, Value?>, into writer: inout JSONWriter,
        members: (Value, inout JSONWriter) -> Void
    ) {
        var started = false
        for id in ids {
            guard let value = self[node: id][keyPath: holding] else { continue }
            if !started {
                writer.key(name)
                writer.beginArray()
                started = true
            }
            writer.beginObject()
            writer.field("node", id)
            members(value, &writer)
            writer.endObject()
        }
        if started { writer.endArray() }
    }

    private func writeSnapshot(of node: Node, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", node.id)
        writer.field("screen", node.screen)
        writer.key("params")
        writer.value(.object(node.params))
        writer.field("kind", node.presentation.kind.rawValue)
        writer.key("children")
        writer.beginArray()
        for child in node.children { writer.string(child) }
        writer.endArray()
        if let style = node.presentation.style { writer.field("style", style.rawValue) }
        if let navigator = node.navigator { writer.field("navigator", navigator.rawValue) }
        if let parent = node.parent { writer.field("parent", parent) }
        writer.endObject()
    }

    private func writeSnapshot(of navigator: Navigator, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", navigator.id.rawValue)
        writer.key("stack")
        writer.beginArray()
        for node in navigator.stack { writer.string(node) }
        writer.endArray()
        writer.field("embedded", navigator.embedded)
        switch navigator.role {
        case .base(let kind): writer.field("rootKind", kind.rawValue)
        case .presented(let style): writer.field("presentedStyle", style.rawValue)
        }
        if let presented = navigator.presentedNavigator { writer.field("presentedNavigator", presented.rawValue) }
        if let parent = navigator.parent { writer.field("parent", parent.rawValue) }
        writer.endObject()
    }
}

/// Why a stored snapshot could not be read.
public struct SnapshotError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

extension AppDescription.Step {
    /// Writes the step as `{"screen", "params", overrides…}`, as the API's route documents and
    /// pending targets show it.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("screen", screen)
        writer.key("params")
        writer.value(.object(params))
        if let presentation { writer.field("presentation", presentation.rawValue) }
        if let style { writer.field("style", style.rawValue) }
        if let embedInNavigation { writer.field("embedInNavigation", embedInNavigation) }
        if fresh { writer.field("fresh", true) }
        writer.endObject()
    }

    /// Writes the step as snapshots and stored records keep it (the API's shape today, apart
    /// from its writer so that either may change alone).
    func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("screen", screen)
        writer.key("params")
        writer.value(.object(params))
        if let presentation { writer.field("presentation", presentation.rawValue) }
        if let style { writer.field("style", style.rawValue) }
        if let embedInNavigation { writer.field("embedInNavigation", embedInNavigation) }
        writer.endObject()
    }
}
