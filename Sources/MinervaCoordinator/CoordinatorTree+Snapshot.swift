public import MinervaJSON

extension CoordinatorTree {
    /// The whole tree as a JSON value, counters included, for storage.
    /// ``init(snapshot:app:)`` reads it back into an equal tree.
    /// - Complexity: O(n) in the number of nodes.
    public var snapshot: JSONValue {
        var members: [String: JSONValue] = [
            "layout": .string(layout.rawValue),
            "nextNode": .int(nextNodeNumber),
            "nextNavigator": .int(nextNavigatorNumber),
            "lastSeq": .int(lastSeq),
            "flags": .array(flags.sorted().map(JSONValue.string)),
            "nodes": .array(nodes.keys.sorted().map { nodeSnapshot(nodes[$0]!) }),
            "navigators": .array(navigatorOrder.map { navigatorSnapshot(navigators[$0]!) }),
        ]
        if let selectedTab { members["selectedTab"] = .string(selectedTab) }
        if let pending {
            members["pending"] = [
                "guardNode": .string(pending.guardNode.description), "flag": .string(pending.flag),
                "steps": .array(pending.steps.map(Self.stepSnapshot)),
            ]
        }
        return .object(members)
    }

    /// Reads a tree back from ``snapshot``. Screens the app no longer declares are kept (see
    /// ``unknownScreens``), so a session survives a changed app description.
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
        lastSeq = try reader.int("lastSeq")
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
            let pending = SnapshotReader(pendingValue)
            var steps: [AppDescription.Step] = []
            for stepValue in try pending.array("steps") {
                let step = SnapshotReader(stepValue)
                steps.append(
                    AppDescription.Step(
                        screen: try step.string("screen"), params: try step.object("params"),
                        presentation: try step.optionalString("presentation").flatMap { AppDescription.PresentationMode(rawValue: $0) },
                        style: try step.optionalString("style").flatMap { ModalStyle(rawValue: $0) },
                        embedInNavigation: step.member("embedInNavigation")?.boolValue))
            }
            self.pending = PendingNavigation(steps: steps, guardNode: try pending.nodeID("guardNode"), flag: try pending.string("flag"))
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

    private func nodeSnapshot(_ node: Node) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(node.id.description), "screen": .string(node.screen), "params": .object(node.params),
            "kind": .string(node.presentation.kind.rawValue), "children": .array(node.children.map { .string($0.description) }),
        ]
        if let style = node.presentation.style { members["style"] = .string(style.rawValue) }
        if let navigator = node.navigator { members["navigator"] = .string(navigator.rawValue) }
        if let parent = node.parent { members["parent"] = .string(parent.description) }
        return .object(members)
    }

    private func navigatorSnapshot(_ navigator: Navigator) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(navigator.id.rawValue), "stack": .array(navigator.stack.map { .string($0.description) }),
            "embedded": .bool(navigator.embedded),
        ]
        switch navigator.role {
        case .base(let kind): members["rootKind"] = .string(kind.rawValue)
        case .presented(let style): members["presentedStyle"] = .string(style.rawValue)
        }
        if let presented = navigator.presentedNavigator { members["presentedNavigator"] = .string(presented.rawValue) }
        if let parent = navigator.parent { members["parent"] = .string(parent.rawValue) }
        return .object(members)
    }

    private static func stepSnapshot(_ step: AppDescription.Step) -> JSONValue {
        var members: [String: JSONValue] = ["screen": .string(step.screen), "params": .object(step.params)]
        if let presentation = step.presentation { members["presentation"] = .string(presentation.rawValue) }
        if let style = step.style { members["style"] = .string(style.rawValue) }
        if let embed = step.embedInNavigation { members["embedInNavigation"] = .bool(embed) }
        return .object(members)
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
    func nodeID(_ name: String) throws(SnapshotError) -> NodeID {
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
