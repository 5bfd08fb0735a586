extension SessionConfiguration {
    /// The configuration every limit's default comes from (the command line's defaults too).
    public static let standard = SessionConfiguration()

    /// Why the configuration cannot serve, each reason naming the command-line flag, or none.
    /// The contract's minimums are checked here, for every way the core is configured.
    public var problems: [String] {
        var problems: [String] = []
        if maxSessions < 1 { problems.append("--max-sessions must be at least 1") }
        if eventHistory < 1000 { problems.append("--event-history must be at least 1000") }
        if limits.listHistory < 32 { problems.append("--list-history must be at least 32") }
        if limits.maxListItems < 1 { problems.append("--max-list-items must be at least 1") }
        if limits.maxNodes < 2 { problems.append("--max-nodes must be at least 2") }
        if limits.maxParamBytes < 2 || limits.maxListBytes < 1 || limits.maxSessionBytes < limits.maxListBytes + 4096 || limits.maxSessionBytes < limits.maxParamBytes + 4096 {
            problems.append(
                "--max-param-bytes must be at least 2 and --max-list-bytes at least 1; --max-session-bytes must leave 4096 bytes beside the largest list and the largest params"
            )
        }
        if limits.maxUIBytes < 2 || limits.maxSessionBytes < limits.maxUIBytes + 4096 {
            problems.append("--max-ui-bytes must be at least 2, and --max-session-bytes must leave 4096 bytes beside it")
        }
        if memoryHistoryBytes < Self.minimumMemoryHistoryBytes {
            problems.append("--memory-history-bytes must be at least \(Self.minimumMemoryHistoryBytes)")
        }
        if rateLimit < 0 || rateBurst < 1 { problems.append("--rate-limit must be 0 or more and --rate-burst at least 1") }
        if sessionTTL <= 0 { problems.append("--session-ttl must be more than 0") }
        return problems
    }

    /// The least history the memory store may keep per session: room for the events after a
    /// session's head (at most 256 of them) at a few hundred bytes each.
    public static let minimumMemoryHistoryBytes = 128 << 10

    /// The most memory `--store memory` may take at worst: every session at its size limit, its
    /// in-memory history as much again, and its history in the store at its budget.
    public var worstMemoryStoreBytes: Int {
        maxSessions.multipliedReportingOverflow(by: 2 * limits.maxSessionBytes + memoryHistoryBytes).partialValue
    }
}
