@testable import MinervaSessions
import Testing

/// The recording core without a session core: entries through the tally, paths, funnels, bins.
@Suite struct AnalyticsTallyTests {
    let start = 1_800_000_000_000  // on the hour

    /// One session: home shown, profile pushed after 10 s, popped after 15 s, deleted after 5 s.
    var visit: [AnalyticsEntry] {
        [
            AnalyticsEntry(session: "s", at: start, fact: .shown(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start, fact: .focus(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start + 10_000, fact: .shown(node: "n3", screen: "profile")),
            AnalyticsEntry(session: "s", at: start + 10_000, fact: .focus(node: "n3", screen: "profile")),
            AnalyticsEntry(session: "s", at: start + 25_000, fact: .exit(node: "n3", screen: "profile", reason: "pop")),
            AnalyticsEntry(session: "s", at: start + 25_000, fact: .focus(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start + 30_000, fact: .end(reason: "deleted")),
        ]
    }

    @Test func countsShownSessionsExitsAndTimeOnScreen() {
        var tally = AnalyticsTally(trails: [:])
        tally.apply(visit)
        tally.apply(AnalyticsEntry(session: "s", at: start + 40_000, fact: .shown(node: "n4", screen: "home")))
        let hour = AnalyticsCount.bucket(ofMilliseconds: start)
        #expect(tally.counts[.init(bucket: hour, screen: "home", metric: "shown")] == 2)
        #expect(tally.counts[.init(bucket: hour, screen: "home", metric: "sessions")] == 1)
        #expect(tally.counts[.init(bucket: hour, screen: "profile", metric: "exit.pop")] == 1)
        #expect(tally.counts[.init(bucket: hour, screen: "home", metric: "exit.deleted")] == 1)
        #expect(tally.samples == [
            AnalyticsSample(screen: "home", milliseconds: 10_000), AnalyticsSample(screen: "profile", milliseconds: 15_000),
            AnalyticsSample(screen: "home", milliseconds: 5000),
        ])
        let screens = AnalyticsReports.screens(tally.counts.map { AnalyticsCount(key: $0.key, count: $0.value) })
        #expect(screens.map(\.screen) == ["home", "profile"])
        #expect(screens[1].exits == ["pop": 1])
        #expect(abs(screens[1].timeOnScreen.median! - 15) < 15 * 0.025)
    }

    @Test func anExpiredSessionCountsTheExitOfItsFocusButNoTime() {
        var tally = AnalyticsTally(trails: [:])
        tally.apply(visit.dropLast())
        let before = tally.samples.count
        tally.apply(AnalyticsEntry(session: "s", at: start + 90_000_000, fact: .end(reason: "expired")))
        #expect(tally.samples.count == before)
        #expect(tally.counts.contains { $0.key.screen == "home" && $0.key.metric == "exit.expired" && $0.value == 1 })
    }

    @Test func batchesCarryTheTrailFromOneToTheNext() {
        var first = AnalyticsTally(trails: [:])
        first.apply(visit.prefix(3))
        // As a store does: the trail goes through its text between transactions.
        let stored = AnalyticsTrail(text: first.trails["s"]!.text, session: "s")
        #expect(stored == first.trails["s"])
        var second = AnalyticsTally(trails: ["s": stored])
        second.apply(visit.dropFirst(3))
        var whole = AnalyticsTally(trails: [:])
        whole.apply(visit)
        #expect(first.samples + second.samples == whole.samples)
        #expect(second.counts[.init(bucket: AnalyticsCount.bucket(ofMilliseconds: start), screen: "profile", metric: "sessions")] == nil)
    }

    @Test func focusChangesArrivingOutOfOrderCountTheSameTime() {
        let home = AnalyticsEntry(session: "s", at: start, fact: .focus(node: "n1", screen: "home"))
        let profile = AnalyticsEntry(session: "s", at: start + 4000, fact: .focus(node: "n3", screen: "profile"))
        let followers = AnalyticsEntry(session: "s", at: start + 9000, fact: .focus(node: "n4", screen: "followers"))
        var inOrder = AnalyticsTally(trails: [:])
        inOrder.apply([home, profile, followers])
        var swapped = AnalyticsTally(trails: [:])
        swapped.apply([home, followers, profile])
        #expect(inOrder.counts.filter { $0.value != 0 } == swapped.counts.filter { $0.value != 0 })
    }

    @Test func flowsCountStatusAndTimeToFinish() {
        var tally = AnalyticsTally(trails: [:])
        tally.apply([
            AnalyticsEntry(session: "s", at: start, fact: .shown(node: "n5", screen: "login")),
            AnalyticsEntry(session: "s", at: start + 8000, fact: .flow(node: "n5", screen: "login", status: "success")),
            AnalyticsEntry(session: "s", at: start + 8000, fact: .exit(node: "n5", screen: "login", reason: "finish")),
            AnalyticsEntry(session: "t", at: start, fact: .shown(node: "n5", screen: "login")),
            AnalyticsEntry(session: "t", at: start + 2000, fact: .flow(node: "n5", screen: "login", status: "cancelled.dismiss")),
        ])
        let flows = AnalyticsReports.flows(tally.counts.map { AnalyticsCount(key: $0.key, count: $0.value) })
        #expect(flows.count == 1)
        #expect(flows[0].success == 1 && flows[0].cancelled == 1 && flows[0].cancelledBy == ["dismiss": 1])
        #expect(flows[0].timeToFinish.samples == 2)
        #expect(abs(flows[0].timeToFinish.median! - 2) < 0.05)
    }

    @Test func funnelsCountStepsInOrderAndWhereSessionsLeft() {
        var tally = AnalyticsTally(trails: [:])
        tally.apply(visit)
        // A second session reaches followers; a third stays on home; a fourth reaches profile too late.
        for (session, screens) in [("t", ["home", "profile", "followers"]), ("u", ["home"]), ("v", ["home", "profile"])] {
            for (index, screen) in screens.enumerated() {
                let at = start + index * (session == "v" ? 3_600_000 : 1000)
                tally.apply(AnalyticsEntry(session: session, at: at, fact: .shown(node: "n\(index + 1)", screen: screen)))
                tally.apply(AnalyticsEntry(session: session, at: at, fact: .focus(node: "n\(index + 1)", screen: screen)))
            }
        }
        tally.apply(AnalyticsEntry(session: "u", at: start + 5000, fact: .end(reason: "expired")))
        let paths = tally.paths.map { AnalyticsPath(session: $0.key, text: $0.value) }
        let funnel = AnalyticsFunnel(screens: ["home", "profile", "followers"], within: 1_800_000, from: nil, until: nil, paths: paths)
        #expect(funnel.steps.map(\.sessions) == [4, 2, 1])
        #expect(funnel.steps[0].exits == [.init(screen: "home", reason: "expired"): 1, .init(screen: "home", reason: "active"): 1])
        #expect(funnel.steps[1].exits == [.init(screen: "profile", reason: "pop"): 1])
        let later = AnalyticsFunnel(screens: ["home"], within: nil, from: start + 1, until: nil, paths: paths)
        #expect(later.steps[0].sessions == 0)
    }

    @Test func namesWithSeparatorsSurviveTheText() {
        let odd = "a b:c,d%e\nf"
        var tally = AnalyticsTally(trails: [:])
        tally.apply([
            AnalyticsEntry(session: "s", at: start, fact: .shown(node: "n1", screen: odd)),
            AnalyticsEntry(session: "s", at: start, fact: .focus(node: "n1", screen: odd)),
        ])
        #expect(AnalyticsTrail(text: tally.trails["s"]!.text, session: "s") == tally.trails["s"])
        #expect(AnalyticsPath(session: "s", text: tally.paths["s"]!).steps.map(\.screen) == [odd])
    }

    @Test(arguments: [1, 999, 10_000, 123_456, 86_400_000])
    func binsReadBackWithinTwoAndAHalfPercent(milliseconds: Int) {
        let seconds = AnalyticsBins.seconds(ofBin: AnalyticsBins.bin(ofMilliseconds: milliseconds))
        #expect(abs(seconds * 1000 - Double(milliseconds)) <= Double(milliseconds) * 0.025)
    }

    @Test func hourBucketsRoundDown() {
        #expect(AnalyticsCount.bucket(ofMilliseconds: 3_600_000 * 5 + 1234) == 3600 * 5)
        #expect(AnalyticsCount.bucket(ofMilliseconds: -1) == -3600)
    }
}

/// Entries stored out of version order by two processes.
@Suite struct AnalyticsOrderTests {
    let start = 1_800_000_000_000

    @Test func laterVersionsWaitForEarlierOnesStoredLater() {
        let creation = [
            AnalyticsEntry(session: "s", at: start, version: 1, fact: .shown(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start, version: 1, fact: .focus(node: "n1", screen: "home")),
        ]
        let push = [
            AnalyticsEntry(session: "s", at: start + 1000, version: 2, fact: .shown(node: "n2", screen: "profile")),
            AnalyticsEntry(session: "s", at: start + 1000, version: 2, fact: .focus(node: "n2", screen: "profile")),
        ]
        let popAndDelete = [
            AnalyticsEntry(session: "s", at: start + 3000, version: 3, fact: .exit(node: "n2", screen: "profile", reason: "pop")),
            AnalyticsEntry(session: "s", at: start + 3000, version: 3, fact: .focus(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start + 4000, version: 4, fact: .end(reason: "deleted")),
        ]
        var inOrder = AnalyticsTally(trails: [:])
        inOrder.apply(creation + push + popAndDelete)
        // The other process's batch first, then this one's, each in a transaction of its own.
        var first = AnalyticsTally(trails: [:])
        first.apply(popAndDelete)
        #expect(first.counts.isEmpty)
        var second = AnalyticsTally(trails: ["s": AnalyticsTrail(text: first.trails["s"]!.text, session: "s")])
        second.apply(creation + push)
        #expect(second.counts == inOrder.counts)
        #expect(second.samples == inOrder.samples)
    }

    @Test func aVersionThatNeverComesIsGivenUpOn() {
        var tally = AnalyticsTally(trails: [:])
        tally.apply(AnalyticsEntry(session: "s", at: start, version: 1, fact: .shown(node: "n1", screen: "home")))
        tally.apply(AnalyticsEntry(session: "s", at: start + 1000, version: 3, fact: .shown(node: "n3", screen: "profile")))
        #expect(tally.trails["s"]!.pending.count == 1)
        tally.apply(AnalyticsEntry(session: "s", at: start + 60_000, version: 4, fact: .mark))
        #expect(tally.trails["s"]!.pending.isEmpty)
        #expect(tally.counts.filter { $0.key.metric == "shown" }.values.reduce(0, +) == 2)
    }

    /// A session far longer than the cap: push/pop of `profile` over `home`, `rounds` times.
    func longSession(rounds: Int) -> [AnalyticsEntry] {
        var entries = [
            AnalyticsEntry(session: "s", at: start, version: 1, fact: .shown(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s", at: start, version: 1, fact: .focus(node: "n1", screen: "home")),
        ]
        for round in 0..<rounds {
            let at = start + 1000 * (round + 1)
            let node = "n\(round + 2)"
            entries += [
                AnalyticsEntry(session: "s", at: at, version: 2 * round + 2, fact: .shown(node: node, screen: "profile")),
                AnalyticsEntry(session: "s", at: at, version: 2 * round + 2, fact: .focus(node: node, screen: "profile")),
                AnalyticsEntry(session: "s", at: at + 500, version: 2 * round + 3, fact: .exit(node: node, screen: "profile", reason: "pop")),
                AnalyticsEntry(session: "s", at: at + 500, version: 2 * round + 3, fact: .focus(node: "n1", screen: "home")),
            ]
        }
        return entries
    }

    @Test func aPathKeepsItsFirstStepsThenMarksItselfTruncated() {
        let cap = AnalyticsTally.maximumPathSteps
        // In batches of a few blocks, as the writer stores them, through the stored trail text.
        var trail: AnalyticsTrail?
        var text = ""
        var counts: [AnalyticsCount.Key: Int] = [:]
        let entries = longSession(rounds: cap)
        for batch in stride(from: 0, to: entries.count, by: 7).map({ entries[$0..<min($0 + 7, entries.count)] }) {
            var tally = AnalyticsTally(trails: trail.map { ["s": AnalyticsTrail(text: $0.text, session: "s")] } ?? [:])
            tally.apply(batch)
            trail = tally.trails["s"]
            text += tally.paths["s"] ?? ""
            for (key, count) in tally.counts { counts[key, default: 0] += count }
        }
        let path = AnalyticsPath(session: "s", text: text)
        #expect(path.steps.count == cap + 1)
        #expect(path.steps.last?.kind == .truncated)
        #expect(path.steps.last?.screen == "profile")
        #expect(trail?.pathSteps == cap + 1)
        // The rollups are not capped: every round's screen shown and exit is counted.
        let hour = AnalyticsCount.bucket(ofMilliseconds: start)
        #expect(counts[.init(bucket: hour, screen: "profile", metric: "shown")] == cap)
        #expect(counts[.init(bucket: hour, screen: "profile", metric: "exit.pop")] == cap)
        // A funnel sees the first steps; a step whose node leaves past the cap left as `truncated`.
        let funnel = AnalyticsFunnel(screens: ["home", "profile", "settings"], within: nil, from: nil, until: nil, paths: [path])
        #expect(funnel.steps.map(\.sessions) == [1, 1, 0])
        #expect(funnel.steps[1].exits == [AnalyticsFunnel.Exit(screen: "profile", reason: "pop"): 1])
        let late = AnalyticsFunnel(screens: ["home", "settings"], within: nil, from: nil, until: nil, paths: [path])
        #expect(late.steps[0].exits == [AnalyticsFunnel.Exit(screen: "profile", reason: "truncated"): 1])
    }

    @Test func aTrailStoredBeforePathsWereCappedReadsBack() {
        let trail = AnalyticsTrail(text: "n1 home 5\nhome\nn1:5\n-\n12", session: "s")
        #expect(trail.version == 12)
        #expect(trail.pathSteps == 0)
        #expect(trail.focus?.screen == "home")
    }
}
