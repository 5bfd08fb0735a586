/// Applies analytics entries to the trails of their sessions: the rolled-up counts to add, the
/// lines to append to each session's path, and the time-on-screen samples. Every store runs its
/// batches through it inside one transaction, with the trails it read there.
public struct AnalyticsTally: Sendable {
    /// Each session's trail, as read and then as changed.
    public private(set) var trails: [String: AnalyticsTrail]
    /// The counts to add.
    public private(set) var counts: [AnalyticsCount.Key: Int] = [:]
    /// The lines to append to each session's path (see ``AnalyticsPath``).
    public private(set) var paths: [String: String] = [:]
    /// How long screens were the focus, for `/metrics`.
    public private(set) var samples: [AnalyticsSample] = []

    /// Starts a tally over the trails the store holds for the batch's sessions (those it has).
    public init(trails: [String: AnalyticsTrail]) {
        self.trails = trails
    }

    /// Applies entries in order, then the waiting entries that come next (see ``apply(_:)-entry``).
    public mutating func apply(_ entries: some Sequence<AnalyticsEntry>) {
        var sessions: Set<String> = []
        for entry in entries {
            admit(entry)
            sessions.insert(entry.session)
        }
        for session in sessions {
            guard var trail = trails[session], !trail.pending.isEmpty else { continue }
            applyPending(&trail, all: false)
            trails[session] = trail
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

    private mutating func admit(_ entry: AnalyticsEntry) {
        // Taken out while it changes, so that its sets and dictionaries are not copied.
        var trail = trails.removeValue(forKey: entry.session) ?? AnalyticsTrail()
        if entry.version == nil {
            applyPending(&trail, all: true)
            applyNow(entry, &trail)
        } else if let version = entry.version, version > trail.version + 1 {
            trail.pending.append(entry)
            let oldest = trail.pending.map(\.at).min() ?? entry.at
            if entry.at - oldest > Self.patience || trail.pending.count > Self.maximumPending {
                applyPending(&trail, all: true)
            }
        } else {
            applyNow(entry, &trail)
        }
        trails[entry.session] = trail
    }

    /// How long, in milliseconds of the entries' own times, entries wait for an earlier version.
    static let patience = 10_000
    /// How many entries of a session wait at most.
    static let maximumPending = 512

    /// Applies the waiting entries that are next in version order (or, with `all`, every one).
    private mutating func applyPending(_ trail: inout AnalyticsTrail, all: Bool) {
        while !trail.pending.isEmpty {
            let ordered = trail.pending.enumerated().sorted { ($0.element.version ?? .max, $0.offset) < ($1.element.version ?? .max, $1.offset) }
            guard let next = ordered.first, all || (next.element.version ?? .max) <= trail.version + 1 else { return }
            trail.pending.remove(at: next.offset)
            applyNow(next.element, &trail)
        }
    }

    /// Applies one entry now.
    private mutating func applyNow(_ entry: AnalyticsEntry, _ trail: inout AnalyticsTrail) {
        if let version = entry.version { trail.version = max(trail.version, version) }
        let bucket = AnalyticsCount.bucket(ofMilliseconds: entry.at)
        switch entry.fact {
        case .shown(let node, let screen):
            add(bucket, screen, AnalyticsMetric.shown)
            if trail.seen.insert(screen).inserted { add(bucket, screen, AnalyticsMetric.sessions) }
            trail.shownAt[node] = entry.at
            append(entry, "s", node, screen)
        case .exit(let node, let screen, let reason):
            add(bucket, screen, AnalyticsMetric.exit(reason))
            trail.shownAt[node] = nil
            append(entry, "x", node, screen, reason, trail.focus?.screen ?? screen)
        case .flow(let node, let screen, let status):
            add(bucket, screen, AnalyticsMetric.flow(status))
            if let shown = trail.shownAt[node] {
                add(bucket, screen, AnalyticsMetric.flowTime(bin: AnalyticsBins.bin(ofMilliseconds: max(0, entry.at - shown))))
            }
        case .focus(let node, let screen):
            focus(on: node, screen, at: entry.at, bucket: bucket, trail: &trail)
        case .end(let reason):
            if let focus = trail.focus {
                add(bucket, focus.screen, AnalyticsMetric.exit(reason))
                // An expired session was left at a moment nobody knows: no time is counted.
                if reason != "expired" { sample(focus.screen, entry.at - focus.since, bucket: bucket) }
                append(entry, "e", "-", focus.screen, reason)
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
            let counted = AnalyticsMetric.time(bin: AnalyticsBins.bin(ofMilliseconds: current.since - previous.since))
            add(AnalyticsCount.bucket(ofMilliseconds: current.since), previous.screen, counted, -1)
            sample(previous.screen, at - previous.since, bucket: bucket)
            sample(screen, current.since - at, bucket: bucket)
            trail.previous = moved
        }
    }

    private mutating func sample(_ screen: String, _ milliseconds: Int, bucket: Int) {
        let milliseconds = max(0, milliseconds)
        add(bucket, screen, AnalyticsMetric.time(bin: AnalyticsBins.bin(ofMilliseconds: milliseconds)))
        samples.append(AnalyticsSample(screen: screen, milliseconds: milliseconds))
    }

    private mutating func add(_ bucket: Int, _ screen: String, _ metric: String, _ count: Int = 1) {
        counts[AnalyticsCount.Key(bucket: bucket, screen: screen, metric: metric), default: 0] += count
    }

    /// Appends a path line: the time, the kind and node as they are, the names escaped.
    private mutating func append(_ entry: AnalyticsEntry, _ kind: String, _ node: String, _ names: String...) {
        var line = "\(entry.at) \(kind) \(node)"
        for name in names {
            line += " "
            line += AnalyticsText.escape(name)
        }
        line += "\n"
        paths[entry.session, default: ""] += line
    }
}
