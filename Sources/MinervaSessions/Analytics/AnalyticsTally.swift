/// Applies analytics entries to the trails of their sessions: the rolled-up counts to add, the
/// lines to append to each session's path, and the time-on-screen samples. Every store runs its
/// batches through it inside one transaction, with the trails it read there.
public struct AnalyticsTally: Sendable {
    /// A rolled-up figure as the tally counts it: the metric as a value, so that counting builds
    /// no text (``counts`` names it once per batch).
    private struct Key: Hashable {
        let bucket: Int
        let screen: String
        let metric: AnalyticsMetric.Figure
    }

    /// How many steps (lines) a session's path keeps at most: its first ones. The step after
    /// them marks the path `truncated` (with the screen in focus then), and nothing more is
    /// appended, so that a long session costs a bounded path; funnels count its first steps only.
    public static let maximumPathSteps = 500

    /// Each session's trail, as read and then as changed.
    public private(set) var trails: [String: AnalyticsTrail]
    private var tallied: [Key: Int] = [:]
    /// The lines to append to each session's path (see ``AnalyticsPath``).
    public private(set) var paths: [String: String] = [:]
    /// How long screens were the focus, for `/metrics`.
    public private(set) var samples: [AnalyticsSample] = []

    /// Starts a tally over the trails the store holds for the batch's sessions (those it has).
    public init(trails: [String: AnalyticsTrail]) {
        self.trails = trails
    }

    /// The counts to add.
    public var counts: [AnalyticsCount.Key: Int] {
        var counts: [AnalyticsCount.Key: Int] = [:]
        counts.reserveCapacity(tallied.count)
        for (key, count) in tallied {
            counts[AnalyticsCount.Key(bucket: key.bucket, screen: key.screen, metric: key.metric.name), default: 0] += count
        }
        return counts
    }

    /// Applies entries in order, then the waiting entries that come next (see ``apply(_:)-entry``).
    /// A run of entries of one session (a mutation's block) takes its trail out once.
    public mutating func apply(_ entries: some Sequence<AnalyticsEntry>) {
        var sessions: Set<String> = []
        var session: String?
        var trail = AnalyticsTrail()
        var lines = ""
        for entry in entries {
            if session != entry.session {
                if let done = session { close(done, trail, lines) }
                sessions.insert(entry.session)
                session = entry.session
                trail = trails.removeValue(forKey: entry.session) ?? AnalyticsTrail()
                lines = ""
            }
            admit(entry, &trail, lines: &lines)
        }
        if let done = session { close(done, trail, lines) }
        for session in sessions {
            guard var trail = trails.removeValue(forKey: session) else { continue }
            var lines = ""
            if !trail.pending.isEmpty { applyPending(&trail, all: false, lines: &lines) }
            close(session, trail, lines)
        }
    }

    /// Applies one entry once the versions before it are applied: an entry whose version is
    /// more than one past the trail's waits in the trail (another process has yet to store the
    /// version between), unless the wait has lasted ``patience`` or grown past
    /// ``maximumPending`` (that version is lost: the store refused it), when every waiting entry
    /// is applied in version order.
    public mutating func apply(_ entry: AnalyticsEntry) {
        apply(CollectionOfOne(entry))
    }

    /// Puts a session's trail back and its new path lines beside those of earlier runs.
    private mutating func close(_ session: String, _ trail: AnalyticsTrail, _ lines: String) {
        trails[session] = trail
        if !lines.isEmpty { paths[session, default: ""] += lines }
    }

    private mutating func admit(_ entry: AnalyticsEntry, _ trail: inout AnalyticsTrail, lines: inout String) {
        if entry.version == nil {
            applyPending(&trail, all: true, lines: &lines)
            applyNow(entry, &trail, lines: &lines)
        } else if let version = entry.version, version > trail.version + 1 {
            trail.pending.append(entry)
            let oldest = trail.pending.map(\.at).min() ?? entry.at
            if entry.at - oldest > Self.patience || trail.pending.count > Self.maximumPending {
                applyPending(&trail, all: true, lines: &lines)
            }
        } else {
            applyNow(entry, &trail, lines: &lines)
        }
    }

    /// How long, in milliseconds of the entries' own times, entries wait for an earlier version.
    static let patience = 10_000
    /// How many entries of a session wait at most.
    static let maximumPending = 512

    /// Applies the waiting entries that are next in version order (or, with `all`, every one).
    private mutating func applyPending(_ trail: inout AnalyticsTrail, all: Bool, lines: inout String) {
        while !trail.pending.isEmpty {
            let ordered = trail.pending.enumerated().sorted { ($0.element.version ?? .max, $0.offset) < ($1.element.version ?? .max, $1.offset) }
            guard let next = ordered.first, all || (next.element.version ?? .max) <= trail.version + 1 else { return }
            trail.pending.remove(at: next.offset)
            applyNow(next.element, &trail, lines: &lines)
        }
    }

    /// Applies one entry now.
    private mutating func applyNow(_ entry: AnalyticsEntry, _ trail: inout AnalyticsTrail, lines: inout String) {
        if let version = entry.version { trail.version = max(trail.version, version) }
        let bucket = AnalyticsCount.bucket(ofMilliseconds: entry.at)
        switch entry.fact {
        case .shown(let node, let screen):
            add(bucket, screen, .shown)
            if trail.seen.insert(screen).inserted { add(bucket, screen, .sessions) }
            trail.shownAt[node] = entry.at
            append(entry.at, "s", node, screen, to: &lines, of: &trail)
        case .exit(let node, let screen, let reason):
            add(bucket, screen, .exit(reason))
            trail.shownAt[node] = nil
            append(entry.at, "x", node, screen, reason, trail.focus?.screen ?? screen, to: &lines, of: &trail)
        case .flow(let node, let screen, let status):
            add(bucket, screen, .flow(status))
            if let shown = trail.shownAt[node] {
                add(bucket, screen, .flowTime(bin: AnalyticsBins.bin(ofMilliseconds: max(0, entry.at - shown))))
            }
        case .focus(let node, let screen):
            focus(on: node, screen, at: entry.at, bucket: bucket, trail: &trail)
        case .end(let reason):
            if let focus = trail.focus {
                add(bucket, focus.screen, .exit(reason))
                // An expired session was left at a moment nobody knows: no time is counted.
                if reason != "expired" { sample(focus.screen, entry.at - focus.since, bucket: bucket) }
                append(entry.at, "e", "-", focus.screen, reason, to: &lines, of: &trail)
            }
            trail.focus = nil
            trail.previous = nil
            trail.shownAt = [:]
        case .mark:
            break
        }
    }

    /// The focus moves: the screen that had it gets its time on screen. A change that arrives
    /// after a later one (two processes recording the same session) goes between the previous
    /// focus and the current one: the time counted for the previous one is corrected (rollups
    /// add a negative count), and the late screen gets the time up to the current one.
    private mutating func focus(on node: String, _ screen: String, at: Int, bucket: Int, trail: inout AnalyticsTrail) {
        let moved = AnalyticsTrail.Focus(node: node, screen: screen, since: at)
        guard let current = trail.focus else {
            trail.focus = moved
            return
        }
        guard current.node != node else { return }
        if at >= current.since {
            sample(current.screen, at - current.since, bucket: bucket)
            trail.previous = current
            trail.focus = moved
        } else if let previous = trail.previous, previous.since <= at, previous.node != node {
            let counted = AnalyticsMetric.Figure.time(bin: AnalyticsBins.bin(ofMilliseconds: current.since - previous.since))
            add(AnalyticsCount.bucket(ofMilliseconds: current.since), previous.screen, counted, -1)
            sample(previous.screen, at - previous.since, bucket: bucket)
            sample(screen, current.since - at, bucket: bucket)
            trail.previous = moved
        }
    }

    private mutating func sample(_ screen: String, _ milliseconds: Int, bucket: Int) {
        let milliseconds = max(0, milliseconds)
        add(bucket, screen, .time(bin: AnalyticsBins.bin(ofMilliseconds: milliseconds)))
        samples.append(AnalyticsSample(screen: screen, milliseconds: milliseconds))
    }

    private mutating func add(_ bucket: Int, _ screen: String, _ metric: AnalyticsMetric.Figure, _ count: Int = 1) {
        tallied[Key(bucket: bucket, screen: screen, metric: metric), default: 0] += count
    }

    /// Appends a path line (the time, the kind and node as they are, the names escaped) while
    /// the path has fewer than ``maximumPathSteps`` steps; the one after them is the `t` line
    /// that marks the path truncated, with the screen in focus.
    private func append(
        _ at: Int, _ kind: StaticString, _ node: String, _ screen: String, _ second: String? = nil, _ third: String? = nil,
        to lines: inout String, of trail: inout AnalyticsTrail
    ) {
        guard trail.pathSteps <= Self.maximumPathSteps else { return }
        trail.pathSteps += 1
        lines += String(at)
        lines += " "
        if trail.pathSteps > Self.maximumPathSteps {
            lines += "t - "
            lines += AnalyticsText.escape(trail.focus?.screen ?? screen)
            lines += "\n"
            return
        }
        lines += kind.description
        lines += " "
        lines += node
        lines += " "
        lines += AnalyticsText.escape(screen)
        if let second {
            lines += " "
            lines += AnalyticsText.escape(second)
        }
        if let third {
            lines += " "
            lines += AnalyticsText.escape(third)
        }
        lines += "\n"
    }
}
