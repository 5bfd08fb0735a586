public import MinervaJSON

extension CoordinatorTree {
    /// Writes the whole tree as JSON, counters included, for storage: written on every
    /// mutation of a stored session, so straight into the writer.
    /// ``init(snapshot:app:)`` reads it back into an equal tree.
    /// - Complexity: O(n) in the number of nodes.
    public func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("layout", layout.rawValue)
        writer.field("nextNode", nextNodeNumber)
        writer.field("nextNavigator", nextNavigatorNumber)
        writer.key("flags")
        writer.beginArray()
        for flag in flags.sorted() { writer.string(flag) }
        writer.endArray()
        writer.key("nodes")
        writer.beginArray()
        for id in nodes.keys.sorted() { writeSnapshot(of: nodes[id]!, into: &writer) }
        writer.endArray()
        writer.key("navigators")
        writer.beginArray()
        for id in navigatorOrder { writeSnapshot(of: navigators[id]!, into: &writer) }
        writer.endArray()
        if let selectedTab { writer.field("selectedTab", selectedTab) }
        if let pending {
            writer.key("pending")
            pending.writeSnapshot(into: &writer)
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
        let reader = SnapshotReader(value)
        let layout = try reader.enumValue("layout", as: Layout.self)
        self.app = app
        self.layout = layout
        rootID = NodeID(0)
        nodes = [:]
        navigators = [:]
        navigatorOrder = []
        nextNodeNumber = try reader.int("nextNode")
        nextNavigatorNumber = try reader.int("nextNavigator")
        selectedTab = try reader.optionalString("selectedTab")
        flags = Set(try reader.strings("flags"))
        for nodeValue in try reader.array("nodes") {
            let node = SnapshotReader(nodeValue)
            let id = try node.nodeID("id")
            var style: ModalStyle?
            if let text = try node.optionalString("style") {
                guard let known = ModalStyle(rawValue: text) else { throw SnapshotError("unknown style \(text)") }
                style = known
            }
            nodes[id] = Node(
                id: id, screen: try node.string("screen"), params: try node.object("params"),
                presentation: Presentation(try node.enumValue("kind", as: Presentation.Kind.self), style: style),
                navigator: try node.optionalString("navigator").map { NavigatorID($0) },
                parent: try node.optionalNodeID("parent"), children: try node.nodeIDs("children"))
        }
        for navigatorValue in try reader.array("navigators") {
            let navigator = SnapshotReader(navigatorValue)
            let role: Navigator.Role
            if let style = try navigator.optionalString("presentedStyle") {
                guard let modal = ModalStyle(rawValue: style) else { throw SnapshotError("unknown style \(style)") }
                role = .presented(modal)
            } else {
                role = .base(rootKind: try navigator.enumValue("rootKind", as: Presentation.Kind.self))
            }
            addNavigator(
                Navigator(
                    id: NavigatorID(try navigator.string("id")),
                    stack: try navigator.nodeIDs("stack"),
                    presentedNavigator: try navigator.optionalString("presentedNavigator").map { NavigatorID($0) },
                    parent: try navigator.optionalString("parent").map { NavigatorID($0) }, embedded: try navigator.bool("embedded"),
                    role: role))
        }
        if let pendingValue = reader.member("pending") {
            pending = try PendingNavigation(snapshot: pendingValue)
        }
        guard nodes[rootID] != nil, navigators.count == navigatorOrder.count else { throw SnapshotError("the snapshot has no app coordinator") }
        if let violation = invariantViolation() { throw SnapshotError("the snapshot is not a valid tree: \(violation)") }
        restoredUnknownScreens = nodes.values.contains { $0.id != rootID && app.screens[$0.screen] == nil }
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

/// Typed access to the members of a snapshot object.
public struct SnapshotReader {
    private let members: [String: JSONValue]

    /// Wraps a value; anything but an object reads as empty.
    public init(_ value: JSONValue) {
        members = value.objectValue ?? [:]
    }

    /// A member, `nil` when absent or `null`.
    public func member(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    private func required(_ name: String) throws(SnapshotError) -> JSONValue {
        guard let value = member(name) else { throw SnapshotError("missing '\(name)'") }
        return value
    }

    /// A required string.
    public func string(_ name: String) throws(SnapshotError) -> String {
        guard let text = try required(name).stringValue else { throw SnapshotError("'\(name)' is not a string") }
        return text
    }

    /// An optional string.
    public func optionalString(_ name: String) throws(SnapshotError) -> String? {
        guard let value = member(name) else { return nil }
        guard let text = value.stringValue else { throw SnapshotError("'\(name)' is not a string") }
        return text
    }

    /// A required integer.
    public func int(_ name: String) throws(SnapshotError) -> Int {
        guard let number = try required(name).intValue else { throw SnapshotError("'\(name)' is not an integer") }
        return number
    }

    /// A required boolean.
    public func bool(_ name: String) throws(SnapshotError) -> Bool {
        guard let flag = try required(name).boolValue else { throw SnapshotError("'\(name)' is not a boolean") }
        return flag
    }

    /// A required array.
    public func array(_ name: String) throws(SnapshotError) -> [JSONValue] {
        guard let elements = try required(name).arrayValue else { throw SnapshotError("'\(name)' is not an array") }
        return elements
    }

    /// An object, empty when absent.
    public func object(_ name: String) throws(SnapshotError) -> [String: JSONValue] {
        guard let value = member(name) else { return [:] }
        guard let object = value.objectValue else { throw SnapshotError("'\(name)' is not an object") }
        return object
    }

    /// An array of strings, empty when absent.
    public func strings(_ name: String) throws(SnapshotError) -> [String] {
        guard let value = member(name) else { return [] }
        guard let elements = value.arrayValue else { throw SnapshotError("'\(name)' is not an array") }
        var result: [String] = []
        for element in elements {
            guard let text = element.stringValue else { throw SnapshotError("'\(name)' holds a non-string") }
            result.append(text)
        }
        return result
    }

    /// A required enum value.
    public func enumValue<T: RawRepresentable>(_ name: String, as: T.Type) throws(SnapshotError) -> T where T.RawValue == String {
        let text = try string(name)
        guard let value = T(rawValue: text) else { throw SnapshotError("'\(name)' has the unknown value '\(text)'") }
        return value
    }

    /// A required node id.
    public func nodeID(_ name: String) throws(SnapshotError) -> NodeID {
        try Self.nodeID(try string(name))
    }

    func optionalNodeID(_ name: String) throws(SnapshotError) -> NodeID? {
        guard let text = try optionalString(name) else { return nil }
        return try Self.nodeID(text)
    }

    func nodeIDs(_ name: String) throws(SnapshotError) -> [NodeID] {
        var ids: [NodeID] = []
        for text in try strings(name) { ids.append(try Self.nodeID(text)) }
        return ids
    }

    static func nodeID(_ text: String) throws(SnapshotError) -> NodeID {
        guard let id = NodeID(text) else { throw SnapshotError("'\(text)' is not a node id") }
        return id
    }
}

extension AppDescription.Step {
    /// Writes the step as `{"screen", "params", overrides…}`: in route documents, pending
    /// navigation and snapshots alike.
    public func write(into writer: inout JSONWriter) {
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
