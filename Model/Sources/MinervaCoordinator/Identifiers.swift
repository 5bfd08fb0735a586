public import MinervaJSON

/// The id of a coordinator node: `n` followed by a number unique in its session (`n0` is the app).
public struct NodeID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number after `n`.
    public let number: Int

    /// Creates the id `n<number>`: only the model makes node ids (a tree when it makes a node, the
    /// readers of what it wrote); an id from a request becomes one through
    /// ``CoordinatorTree/resolve(node:)``.
    package init(_ number: Int) {
        self.number = number
    }

    /// Parses `n<number>`; `nil` for anything else.
    package init?(_ text: String) {
        let utf8 = text.utf8
        guard utf8.count > 1, utf8.count <= 19, utf8.first == UInt8(ascii: "n"),
            let number = Int(text.dropFirst()), number >= 0, String(number) == text.dropFirst()
        else { return nil }
        self.number = number
    }

    public var description: String { "n" + String(number) }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.number < rhs.number }
}

/// The id of a navigator: `v0`, `v1`, … or a layout's named base navigators (`primary`, `detail`).
public struct NavigatorID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as it appears on the wire.
    public let rawValue: String

    /// Wraps a wire id.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    /// The base navigator of a `stack` layout.
    public static let main: NavigatorID = "v0"
    /// The list side of a `split` layout.
    public static let primary: NavigatorID = "primary"
    /// The middle column of a three-column split view.
    public static let supplementary: NavigatorID = "supplementary"
    /// The detail side of a `split` layout.
    public static let detail: NavigatorID = "detail"
    /// The navigator of an overlay flow, shown over the session's flow (``CoordinatorTree/overlay``).
    public static let overlay: NavigatorID = "overlay"

    /// The kind of the root a base navigator of this id shows, by its place: a tab's, a split
    /// view's middle or detail column, an overlay's, or a root (`v0`, `primary`).
    public var baseRootKind: Presentation.Kind {
        if self == .detail { return .detail }
        if self == .supplementary { return .supplementary }
        if self == .overlay { return .overlay }
        return rawValue.hasPrefix("tab:") ? .tab : .root
    }
}

extension JSONWriter {
    /// Writes a node id as a string value (`"n42"`) without building the string.
    public mutating func string(_ id: NodeID) {
        string("n", id.number)
    }

    /// Writes a key and a node id, or `null` when absent.
    public mutating func field(_ name: StaticString, _ id: NodeID?) {
        key(name)
        if let id { string(id) } else { null() }
    }
}
