/// A funnel over sessions' paths: how many reached each step in order, and where those that
/// stopped left from and how.
public struct AnalyticsFunnel: Sendable, Equatable {
    /// One step's figures.
    public struct Step: Sendable, Equatable {
        /// The step's screen.
        public let screen: String
        /// Sessions that reached it (and every step before it, in order).
        public var sessions = 0
        /// Of those, the sessions that did not reach the next step (0 for the last step).
        public var stopped = 0
        /// How the stopped sessions left, by the screen in focus then and the reason: the step's
        /// node leaving the tree (`pop`, `dismiss`, …), the session ending (`expired`,
        /// `deleted`), `truncated` when the session's path reached its length limit first (see
        /// ``AnalyticsTally/maximumPathSteps``), or `active` while it is still there.
        public var exits: [Exit: Int] = [:]
    }

    /// Where and how a session left a funnel.
    public struct Exit: Sendable, Hashable, Comparable {
        public let screen: String
        public let reason: String

        public static func < (lhs: Exit, rhs: Exit) -> Bool { (lhs.screen, lhs.reason) < (rhs.screen, rhs.reason) }
    }

    /// The steps, in order.
    public private(set) var steps: [Step]

    /// Counts a funnel.
    /// - Parameters:
    ///   - screens: the steps' screens, in order.
    ///   - within: milliseconds from the first step within which the others count; `nil` for no limit.
    ///   - from: counts only sessions whose first step was reached at this moment (ms) or later.
    ///   - until: … and before this one.
    ///   - paths: the sessions' paths.
    /// - Complexity: O(n) in the paths' steps.
    public init(screens: [String], within: Int?, from: Int?, until: Int?, paths: some Sequence<AnalyticsPath>) {
        steps = screens.map { Step(screen: $0) }
        guard !screens.isEmpty else { return }
        for path in paths { count(path, within: within, from: from, until: until) }
    }

    private mutating func count(_ path: AnalyticsPath, within: Int?, from: Int?, until: Int?) {
        var reached = 0
        var start = 0
        var last = (index: 0, node: "")
        for (index, step) in path.steps.enumerated() where step.kind == .shown && step.screen == steps[reached].screen {
            if reached == 0 {
                if let from, step.at < from { continue }
                if let until, step.at >= until { break }
                start = step.at
            } else if let within, step.at - start > within {
                break
            }
            last = (index, step.node)
            reached += 1
            if reached == steps.count { break }
        }
        guard reached > 0 else { return }
        for index in 0..<reached { steps[index].sessions += 1 }
        guard reached < steps.count else { return }
        steps[reached - 1].stopped += 1
        steps[reached - 1].exits[Self.exit(of: last.node, after: last.index, in: path, screen: steps[reached - 1].screen), default: 0] += 1
    }

    /// How the node left: the first removal of it, the session's end, or the path's truncation after `index`.
    private static func exit(of node: String, after index: Int, in path: AnalyticsPath, screen: String) -> Exit {
        for step in path.steps[(index + 1)...] {
            switch step.kind {
            case .exit(let reason, let from) where step.node == node: return Exit(screen: from, reason: reason)
            case .end(let reason): return Exit(screen: step.screen, reason: reason)
            case .truncated: return Exit(screen: step.screen, reason: "truncated")
            default: continue
            }
        }
        return Exit(screen: screen, reason: "active")
    }
}
