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

    /// The memory one session may take at worst: its state at `--max-session-bytes` and its
    /// in-memory history, 1.25 times as much (``SessionCore/historyBudget``: newest events and
    /// older list versions half each, remembered answers a quarter), and in the memory store its
    /// history there (`--memory-history-bytes`) too.
    public func worstSessionBytes(inMemoryStore: Bool) -> Int {
        let (nine, overflowed) = limits.maxSessionBytes.multipliedReportingOverflow(by: 9)
        let (bytes, overflowedAgain) = (nine / 4).addingReportingOverflow(inMemoryStore ? memoryHistoryBytes : 0)
        return overflowed || overflowedAgain ? .max : bytes
    }

    /// The memory `maxSessions` sessions may take at worst (``worstSessionBytes(inMemoryStore:)`` each).
    public func worstBytes(inMemoryStore: Bool) -> Int {
        let (bytes, overflowed) = maxSessions.multipliedReportingOverflow(by: worstSessionBytes(inMemoryStore: inMemoryStore))
        return overflowed ? .max : bytes
    }

    /// Why `maxSessions` sessions at worst do not fit in `budget` bytes, naming the flags and the
    /// most sessions that fit; `nil` when they fit.
    public func memoryProblem(budget: Int, inMemoryStore: Bool) -> String? {
        let worst = worstBytes(inMemoryStore: inMemoryStore)
        guard worst > budget else { return nil }
        let each = worstSessionBytes(inMemoryStore: inMemoryStore)
        return "\(maxSessions) sessions may take up to \(Self.gibibytes(worst)) at worst (\(each >> 10) KiB each: 2.25 times --max-session-bytes"
            + (inMemoryStore ? ", and --memory-history-bytes in the memory store" : "")
            + "), more than --memory-budget \(Self.gibibytes(budget)): lower --max-sessions to at most \(budget / each), "
            + "or --max-session-bytes\(inMemoryStore ? " or --memory-history-bytes" : ""), or raise --memory-budget"
    }

    /// Bytes as GiB with one decimal (`4.9 GiB`).
    public static func gibibytes(_ bytes: Int) -> String {
        "\((Double(bytes) / Double(1 << 30) * 10).rounded() / 10) GiB"
    }
}
