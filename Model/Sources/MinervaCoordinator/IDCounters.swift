public import MinervaJSON

/// The numbers a tree's next node and next presented navigator take (`n12`, `v3`): part of the
/// state a client holds (the state document shows them), so that it knows the ids a change will
/// make before the server answers.
///
/// A replay moves them past the ids its block's events name; a block whose operation made ids
/// no event shows (a node made and removed by the same operation) carries them on its final
/// event, so that a replay ends with them exact.
public struct IDCounters: Hashable, Sendable {
    /// The number of the next node's id.
    public var nextNode: Int
    /// The number of the next presented navigator's id.
    public var nextNavigator: Int

    /// Counters with these numbers.
    public init(nextNode: Int, nextNavigator: Int) {
        self.nextNode = nextNode
        self.nextNavigator = nextNavigator
    }

    /// The counters moved past what an `added` event names: its node, and the navigator it
    /// starts when presented.
    public mutating func advance(past added: AddedNode) {
        nextNode = max(nextNode, added.node.number + 1)
        if added.presentedBy != nil, let number = added.navigator.number {
            nextNavigator = max(nextNavigator, number + 1)
        }
    }

    /// What a replay of `block` from these counters ends with when the block carries none.
    public func advanced(past block: [NavigationEvent]) -> IDCounters {
        var counters = self
        for case .added(let added) in block { counters.advance(past: added) }
        return counters
    }
}

extension CoordinatorTree {
    /// The tree's id counters.
    public var idCounters: IDCounters {
        IDCounters(nextNode: nextNodeNumber, nextNavigator: nextNavigatorNumber)
    }
}

extension NavigatorID {
    /// The number of a presented navigator's id (`v3` → 3); `nil` for a named one (`primary`, `tab:home`).
    var number: Int? {
        guard rawValue.first == "v" else { return nil }
        return Int(rawValue.dropFirst())
    }
}

extension IDCounters {
    /// Writes `"nextNode"` and `"nextNavigator"` into an open object.
    public func writeFields(into writer: inout JSONWriter) {
        writer.field("nextNode", nextNode)
        writer.field("nextNavigator", nextNavigator)
    }

    /// Reads `"nextNode"` and `"nextNavigator"` of an object that holds both or neither.
    /// - Returns: `nil` when it holds neither.
    /// - Throws: ``JSONReadError`` when it holds one only, or one is not a whole number.
    public init?(optionalFieldsOf reader: JSONObjectReader) throws(JSONReadError) {
        guard let nextNode = try reader.optionalInt("nextNode") else {
            if reader.contains("nextNavigator") { throw reader.error("'nextNavigator' goes with 'nextNode'", at: .key("nextNavigator")) }
            return nil
        }
        self.init(nextNode: nextNode, nextNavigator: try reader.int("nextNavigator"))
    }
}
