/// What a change is checked against inside the step: the size of one node's params and UI
/// state, of one list, and of a whole session. A client that holds them refuses what the server
/// would refuse.
public struct StepLimits: Sendable, Equatable {
    /// Cells per list at most.
    public var maxListItems: Int
    /// Bytes of one list's cells (ids, kinds, contents and a share per cell) at most.
    public var maxListBytes: Int
    /// Nodes per session at most.
    public var maxNodes: Int
    /// Bytes of one node's params (as JSON) at most; a flow's result value counts the same.
    public var maxParamBytes: Int
    /// Bytes of one node's UI state (as JSON) at most.
    public var maxUIBytes: Int
    /// Bytes of a whole session at most: a share per node and its params, UI state and held
    /// results, and every list's current cells.
    public var maxSessionBytes: Int
    /// List versions kept per node for diffs from older versions.
    public var listHistory: Int
    /// Bytes the older versions of all of a session's lists may take in memory together (the
    /// oldest go first beyond it).
    public var listHistoryBudget: Int

    /// Creates limits.
    public init(
        maxListItems: Int, maxListBytes: Int, maxNodes: Int, maxParamBytes: Int, maxUIBytes: Int, maxSessionBytes: Int, listHistory: Int,
        listHistoryBudget: Int
    ) {
        self.maxListItems = maxListItems
        self.maxListBytes = maxListBytes
        self.maxNodes = maxNodes
        self.maxParamBytes = maxParamBytes
        self.maxUIBytes = maxUIBytes
        self.maxSessionBytes = maxSessionBytes
        self.listHistory = listHistory
        self.listHistoryBudget = listHistoryBudget
    }
}
