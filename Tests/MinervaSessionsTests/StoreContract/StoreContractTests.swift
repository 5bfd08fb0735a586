import MinervaSessions
import Testing

/// The contract of ``SessionStorage`` and ``AnalyticsStorage``, run on every store (memory,
/// SQLite, PostgreSQL): what the session core relies on, pinned to one behaviour. The first
/// thing a new store runs.
@Suite struct StoreContractTests {
    typealias Records = StoreRecords

    @Test(arguments: StoreKind.available)
    func aSessionIsCreatedOnceAndChangedOnlyFromItsNewestEvent(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        #expect(try store.loadSession("s_none", eventTail: 10) == nil)
        #expect(try store.commit([Records.creation("s_a")]) == [.committed])
        // An id that exists is not made again, and nothing of the second creation is kept.
        #expect(try store.commit([Records.creation("s_a", tokenHash: [9], lastUsed: 5)]) == [.conflict])
        var stored = try #require(try store.loadSession("s_a", eventTail: 10))
        #expect(stored.record.tokenHash == [1, 2, 3] && stored.record.lastUsed == 1000 && stored.record.version == 1)
        #expect(stored.record.createdAt == 900)

        #expect(try store.commit([Records.change("s_a", after: 0, events: 1...2)]) == [.committed])
        // A write from a newest event no longer the newest changes nothing.
        #expect(try store.commit([Records.change("s_a", after: 0, events: 1...3)]) == [.conflict])
        #expect(try store.commit([Records.change("s_a", after: 1, events: 2...3)]) == [.conflict])
        #expect(try store.commit([Records.change("s_a", after: 3, events: 4...4)]) == [.conflict])
        #expect(try store.commit([Records.change("s_missing", after: 0, events: 1...1)]) == [.conflict])
        stored = try #require(try store.loadSession("s_a", eventTail: 10))
        #expect(stored.record.version == 3 && stored.record.lastEvent == 2 && stored.record.state == Array("v3".utf8))
        #expect(stored.events.map(\.seq) == [1, 2] && stored.events.map(\.body) == [[1], [2]])
        // What only a creation sets stays as it was created.
        #expect(stored.record.tokenHash == [1, 2, 3] && stored.record.firstEvent == 1 && stored.record.createdAt == 900)
        #expect(try store.tokenHash(of: "s_a") == [1, 2, 3] && store.tokenHash(of: "s_missing") == nil)
        #expect(try store.loadSession("s_missing", eventTail: 10) == nil)
        #expect(try store.sessionCount() == 1)
    }

    @Test(arguments: StoreKind.available)
    func aDeltaLeavesTheHeadAndItsEventsAreReadWithIt(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        _ = try store.commit([Records.change("s_a", after: 0, events: 1...2)])
        for first in stride(from: 3, through: 11, by: 2) {
            #expect(try store.commit([Records.change("s_a", after: first - 1, events: first...(first + 1), writesHead: false)]) == [.committed])
        }
        // The head stays at the last write that wrote it; the checks go by the newest event.
        var stored = try #require(try store.loadSession("s_a", eventTail: 2))
        #expect(stored.record.version == 3 && stored.record.lastEvent == 2 && stored.record.state == Array("v3".utf8))
        // Every event after the head comes with it, however few were asked for.
        #expect(stored.events.map(\.seq) == Array(3...12))
        #expect(try store.loadSession("s_a", eventTail: 11)?.events.map(\.seq) == Array(2...12))
        #expect(try store.commit([Records.change("s_a", after: 10, events: 11...11, writesHead: false)]) == [.conflict])
        // A write with no event (a remembered answer) is checked all the same, and moves nothing.
        #expect(try store.commit([Records.change("s_a", after: 11, events: nil, answers: [Records.answer("k", at: 5)])]) == [.conflict])
        #expect(try store.commit([Records.change("s_a", after: 12, events: nil, writesHead: false, answers: [Records.answer("k", at: 5)])]) == [.committed])
        #expect(try store.loadAnswer(of: "s_a", key: "k") != nil)
        #expect(try store.commit([Records.change("s_a", after: 12, events: 13...13)]) == [.committed])
        stored = try #require(try store.loadSession("s_a", eventTail: 1))
        #expect(stored.record.version == 14 && stored.record.lastEvent == 13 && stored.events.map(\.seq) == [13])
    }

    @Test(arguments: StoreKind.available)
    func aConflictInAGroupLeavesTheOtherWritesApplied(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        #expect(try store.commit([Records.creation("s_a"), Records.creation("s_b"), Records.creation("s_c")]) == [.committed, .committed, .committed])
        let outcomes = try store.commit([
            Records.change("s_a", after: 0, events: 1...1), Records.change("s_b", after: 7, events: 8...8), Records.change("s_c", after: 0, events: 1...1),
        ])
        #expect(outcomes == [.committed, .conflict, .committed])
        #expect(try store.loadSession("s_a", eventTail: 5)?.record.version == 2)
        #expect(try store.loadSession("s_b", eventTail: 5)?.events.isEmpty == true)
        #expect(try store.loadSession("s_c", eventTail: 5)?.record.version == 2)
    }

    @Test(arguments: StoreKind.available)
    func eventsAreReadByRangeAndTheNewestWithTheSession(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        for round in 0..<4 { _ = try store.commit([Records.change("s_a", after: round * 2, events: (round * 2 + 1)...(round * 2 + 2))]) }
        #expect(try store.events(of: "s_a", after: 2, through: 5).map(\.seq) == [3, 4, 5])
        #expect(try store.events(of: "s_a", after: 8, through: 8).isEmpty)
        #expect(try store.events(of: "s_none", after: 0, through: 8).isEmpty)
        let stored = try #require(try store.loadSession("s_a", eventTail: 3))
        #expect(stored.events.map(\.seq) == [6, 7, 8] && stored.events.map(\.body) == [[6], [7], [8]])
        #expect(try store.loadSession("s_a", eventTail: 0)?.events.isEmpty == true)
    }

    @Test(arguments: StoreKind.available)
    func droppingOldEventsKeepsTheNewestCheckpointBeforeTheKeptOnes(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        _ = try store.commit([Records.change("s_a", after: 0, events: 1...10, checkpoints: [3, 6])])
        _ = try store.commit([Records.change("s_a", after: 10, events: 11...11, oldestKept: 8)])
        #expect(try store.events(of: "s_a", after: 0, through: 11).map(\.seq) == Array(6...11))
        _ = try store.commit([Records.change("s_a", after: 11, events: 12...12, oldestKept: 12)])
        // No checkpoint before 12 but the one at 6: it stays, with every event after it.
        #expect(try store.events(of: "s_a", after: 0, through: 12).map(\.seq) == Array(6...12))
        _ = try store.commit([Records.change("s_a", after: 12, events: 13...13, checkpoints: [13], oldestKept: 13)])
        #expect(try store.events(of: "s_a", after: 0, through: 13).map(\.seq) == Array(6...13))
        _ = try store.commit([Records.change("s_a", after: 13, events: 14...14, oldestKept: 14)])
        #expect(try store.events(of: "s_a", after: 0, through: 14).map(\.seq) == [13, 14])
    }

    @Test(arguments: StoreKind.available)
    func aCreationKeyIsStoredWithItsSessionAndNeverTwice(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        #expect(try store.commit([Records.creation("s_a", key: Records.answer("k1", at: 100))]) == [.committed])
        #expect(try store.loadCreation("k1")?.body == Array("answer k1".utf8))
        // Another session made under a key already stored is refused, and is not stored.
        #expect(try store.commit([Records.creation("s_b", key: Records.answer("k1", at: 200))]) == [.conflict])
        #expect(try store.loadSession("s_b", eventTail: 1) == nil)
        #expect(try store.loadCreation("k1")?.storedAt == 100)
        #expect(try store.loadCreation("k2") == nil)
        // A key stored before the creation's expiry horizon is taken over.
        #expect(try store.commit([Records.creation("s_c", key: Records.answer("k1", at: 300), keysExpireBefore: 100)]) == [.conflict])
        #expect(try store.commit([Records.creation("s_c", key: Records.answer("k1", at: 300), keysExpireBefore: 101)]) == [.committed])
        #expect(try store.loadCreation("k1")?.storedAt == 300)
        #expect(try store.loadSession("s_c", eventTail: 1) != nil)
        // Expiry forgets keys stored before its horizon; the session stays while it is used.
        #expect(try store.expire(unusedSince: 0, answersBefore: 350).isEmpty)
        #expect(try store.loadCreation("k1") == nil)
        #expect(try store.loadSession("s_a", eventTail: 1) != nil)
    }

    @Test(arguments: StoreKind.available)
    func answersAreKeptNewestFirstUpToTheirLimit(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        for (index, key) in ["k1", "k2", "k3"].enumerated() {
            _ = try store.commit([
                Records.change("s_a", after: index, events: (index + 1)...(index + 1), answers: [Records.answer(key, at: Double(10 + index))], keptAnswers: 2)
            ])
        }
        #expect(try store.loadAnswer(of: "s_a", key: "k1") == nil)
        #expect(try store.loadAnswer(of: "s_a", key: "k3")?.body == Array("answer k3".utf8))
        #expect(try store.loadSession("s_a", eventTail: 0)?.answers.map(\.key) == ["k2", "k3"])
        // A write without an answer trims nothing, whatever limit it names.
        _ = try store.commit([Records.change("s_a", after: 3, events: 4...4, keptAnswers: 1)])
        #expect(try store.loadSession("s_a", eventTail: 0)?.answers.map(\.key) == ["k2", "k3"])
        // An answer under a key stored already replaces it.
        _ = try store.commit([Records.change("s_a", after: 4, events: 5...5, answers: [Records.answer("k2", at: 20)], keptAnswers: 2)])
        #expect(try store.loadSession("s_a", eventTail: 0)?.answers.map(\.key) == ["k3", "k2"])
        #expect(try store.loadAnswer(of: "s_a", key: "k2")?.storedAt == 20)
        #expect(try store.expire(unusedSince: 0, answersBefore: 15).isEmpty)
        #expect(try store.loadSession("s_a", eventTail: 0)?.answers.map(\.key) == ["k2"])
        #expect(try store.loadAnswer(of: "s_other", key: "k2") == nil)
    }

    @Test(arguments: StoreKind.available)
    func listVersionsStayWhileAKeptEventShowsThemAndRemovedNodesListsAreNotLoaded(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        var create = Records.creation("s_a")
        if case .session(var write) = create {
            write.newListVersions = [ListRecord(node: "n2", version: 1, body: [21]), ListRecord(node: "n1", version: 1, body: [11])]
            create = .session(write)
        }
        _ = try store.commit([create])
        for (seq, version) in [(1, 2), (2, 3), (3, 4)] {
            _ = try store.commit([
                Records.change("s_a", after: seq - 1, events: seq...seq, lists: [ListRecord(node: "n1", version: version, body: [UInt8(10 + version)])],
                               superseded: [("n1", seq)])
            ])
        }
        // n2 leaves at event 4: its list stays (time travel shows it) but is no list of the session now.
        _ = try store.commit([Records.change("s_a", after: 3, events: 4...4, superseded: [("n2", 4)])])
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 1)?.body == [11])
        #expect(try store.listVersion(of: "s_a", node: "n2", version: 1)?.body == [21])
        // A load reads a living list's current and previous version, and those its newest events replaced.
        #expect(try store.loadSession("s_a", eventTail: 0)?.lists.map { "\($0.node)@\($0.version)" } == ["n1@3", "n1@4"])
        #expect(try store.loadSession("s_a", eventTail: 3)?.lists.map { "\($0.node)@\($0.version)" } == ["n1@2", "n1@3", "n1@4"])
        #expect(try store.loadSession("s_a", eventTail: 100)?.lists.map { "\($0.node)@\($0.version)" } == ["n1@1", "n1@2", "n1@3", "n1@4"])
        // Dropping events 1-2 drops what only they showed, but a living list keeps its newest retained versions.
        _ = try store.commit([Records.change("s_a", after: 4, events: 5...5, oldestKept: 3, retainedLists: 1)])
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 1) == nil)
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 2) == nil)
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 3)?.body == [13])
        #expect(try store.listVersion(of: "s_a", node: "n2", version: 1)?.body == [21])
        // Once no kept event shows it, a removed node's list goes whole.
        _ = try store.commit([Records.change("s_a", after: 5, events: 6...6, oldestKept: 5, retainedLists: 1)])
        #expect(try store.listVersion(of: "s_a", node: "n2", version: 1) == nil)
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 3)?.body == [13])
        #expect(try store.loadSession("s_a", eventTail: 0)?.lists.map { "\($0.node)@\($0.version)" } == ["n1@3", "n1@4"])
    }

    @Test(arguments: StoreKind.available)
    func aListStartedAgainReplacesWhatWasKeptOfTheNodesEarlierList(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        _ = try store.commit([Records.change("s_a", after: 0, events: 1...1, lists: [ListRecord(node: "n1", version: 1, body: [1])], restarted: ["n1"])])
        _ = try store.commit([Records.change("s_a", after: 1, events: 2...2, lists: [ListRecord(node: "n1", version: 2, body: [2])], superseded: [("n1", 2)])])
        _ = try store.commit([Records.change("s_a", after: 2, events: 3...3, superseded: [("n1", 3)])])
        #expect(try store.loadSession("s_a", eventTail: 0)?.lists.isEmpty == true)
        // The node comes back (a restore) with a list of its own, numbered anew.
        _ = try store.commit([Records.change("s_a", after: 3, events: 4...4, lists: [ListRecord(node: "n1", version: 1, body: [9])], restarted: ["n1"])])
        #expect(try store.loadSession("s_a", eventTail: 0)?.lists.map { "\($0.node)@\($0.version):\($0.body)" } == ["n1@1:[9]"])
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 2) == nil)
    }

    @Test(arguments: StoreKind.available)
    func anEarlierVersionIsReadFromTheNewestCheckpointEarlyEnough(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a")])
        // Event n makes version n + 1; events 1 (version 1's checkpoint), 4 and 8 carry checkpoints.
        _ = try store.commit([Records.change("s_a", after: 0, events: 1...10, checkpoints: [1, 4, 8])])
        #expect(try store.events(of: "s_a", rebuilding: 1, through: 10).map(\.seq) == Array(1...10))
        #expect(try store.events(of: "s_a", rebuilding: 4, through: 10).map(\.seq) == Array(1...10))
        #expect(try store.events(of: "s_a", rebuilding: 5, through: 10).map(\.seq) == Array(4...10))
        #expect(try store.events(of: "s_a", rebuilding: 9, through: 10).map(\.seq) == Array(8...10))
        #expect(try store.events(of: "s_a", rebuilding: 11, through: 9).map(\.seq) == [8, 9])
        #expect(try store.events(of: "s_other", rebuilding: 5, through: 10).isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aDeletedSessionTakesEverythingItHeld(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a"), Records.creation("s_b")])
        _ = try store.commit([
            Records.change("s_a", after: 0, events: 1...2, answers: [Records.answer("k", at: 10)], lists: [ListRecord(node: "n1", version: 1, body: [1])])
        ])
        #expect(try store.commit([.delete(id: "s_a"), .delete(id: "s_none")]) == [.committed, .committed])
        #expect(try store.loadSession("s_a", eventTail: 5) == nil)
        #expect(try store.events(of: "s_a", after: 0, through: 2).isEmpty)
        #expect(try store.loadAnswer(of: "s_a", key: "k") == nil)
        #expect(try store.listVersion(of: "s_a", node: "n1", version: 1) == nil)
        #expect(try store.sessionCount() == 1)
        // The id can be used again: nothing of the first session comes back with it.
        _ = try store.commit([Records.creation("s_a")])
        #expect(try store.loadSession("s_a", eventTail: 5)?.events.isEmpty == true)
    }

    @Test(arguments: StoreKind.available)
    func extraTokensAreKeptPerSessionUpToTheLimitAndGoWithTheirSession(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        let grant = { (id: String, scope: TokenScope, at: Int) in
            TokenGrant(id: id, scope: scope, hash: Array("hash-\(id)".utf8), label: id == "k_1" ? "support" : nil, createdAt: at)
        }
        #expect(try store.addGrant(grant("k_0", .read, 1), to: "s_a", limit: 2) == .noSession)
        _ = try store.commit([Records.creation("s_a", lastUsed: 100), Records.creation("s_b", lastUsed: 300)])
        #expect(try store.addGrant(grant("k_1", .read, 10), to: "s_a", limit: 2) == .added)
        #expect(try store.addGrant(grant("k_2", .write, 20), to: "s_a", limit: 2) == .added)
        #expect(try store.addGrant(grant("k_3", .read, 30), to: "s_a", limit: 2) == .full)
        #expect(try store.addGrant(grant("k_4", .write, 40), to: "s_b", limit: 2) == .added)
        #expect(try store.grants(of: "s_a") == [grant("k_1", .read, 10), grant("k_2", .write, 20)])
        #expect(try store.grant(of: "s_a", hash: Array("hash-k_2".utf8)) == grant("k_2", .write, 20))
        // A token of one session opens no other.
        #expect(try store.grant(of: "s_a", hash: Array("hash-k_4".utf8)) == nil)
        #expect(try store.grants(of: "s_none").isEmpty)
        // A revoked token is gone, and its place is free again.
        #expect(try store.revokeGrant("k_1", of: "s_a"))
        #expect(try !store.revokeGrant("k_1", of: "s_a") && !store.revokeGrant("k_4", of: "s_a"))
        #expect(try store.grant(of: "s_a", hash: Array("hash-k_1".utf8)) == nil)
        #expect(try store.addGrant(grant("k_3", .read, 30), to: "s_a", limit: 2) == .added)
        // A deleted or expired session takes its tokens along; its id made again has none.
        _ = try store.commit([.delete(id: "s_a")])
        _ = try store.commit([Records.creation("s_a", lastUsed: 100)])
        #expect(try store.grants(of: "s_a").isEmpty && store.grant(of: "s_a", hash: Array("hash-k_2".utf8)) == nil)
        #expect(try store.expire(unusedSince: 400, answersBefore: 0).sorted() == ["s_a", "s_b"])
        _ = try store.commit([Records.creation("s_b", lastUsed: 500)])
        #expect(try store.grants(of: "s_b").isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func sessionsExpireByTheirLastUseWhichOnlyMovesForward(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([Records.creation("s_a", lastUsed: 100), Records.creation("s_b", lastUsed: 100), Records.creation("s_c", lastUsed: 300)])
        #expect(try store.commit([.touch([(id: "s_a", lastUsed: 250), (id: "s_c", lastUsed: 200), (id: "s_none", lastUsed: 900)])]) == [.committed])
        #expect(try store.loadSession("s_c", eventTail: 0)?.record.lastUsed == 300)
        #expect(try store.expire(unusedSince: 200, answersBefore: 0) == ["s_b"])
        #expect(try store.loadSession("s_b", eventTail: 0) == nil)
        #expect(try store.sessionCount() == 2)
        #expect(try Set(store.expire(unusedSince: 1000, answersBefore: 0)) == ["s_a", "s_c"])
        #expect(try store.sessionCount() == 0)
    }

    @Test(arguments: StoreKind.available)
    func anAppDescriptionKeptUnderAVersionStaysAsFirstKept(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        #expect(try store.appDescription(version: "v1") == nil)
        try store.keepAppDescription(Array("first".utf8), version: "v1")
        try store.keepAppDescription(Array("second".utf8), version: "v1")
        try store.keepAppDescription(Array("other".utf8), version: "v2")
        #expect(try store.appDescription(version: "v1") == Array("first".utf8))
        #expect(try store.appDescription(version: "v2") == Array("other".utf8))
        try store.checkReachable()
        try store.checkWritable()
        #expect(try store.sessionCount() == 0)
    }

    @Test(arguments: StoreKind.available)
    func analyticsCountPathsAndForgetAsTheMemoryStoreDoes(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let reference = AnalyticsMemoryStore()
        let hour = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000
        let first: [AnalyticsEntry] = [
            AnalyticsEntry(session: "s_a", at: hour, version: 1, fact: .shown(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s_a", at: hour, version: 1, fact: .focus(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s_a", at: hour + 2000, version: 2, fact: .shown(node: "n2", screen: "profile")),
            AnalyticsEntry(session: "s_a", at: hour + 2000, version: 2, fact: .focus(node: "n2", screen: "profile")),
            AnalyticsEntry(session: "s_b", at: hour + 10, version: 1, fact: .shown(node: "n1", screen: "home")),
        ]
        let second: [AnalyticsEntry] = [
            AnalyticsEntry(session: "s_a", at: hour + 5000, version: 3, fact: .exit(node: "n2", screen: "profile", reason: "pop")),
            AnalyticsEntry(session: "s_a", at: hour + 5000, version: 3, fact: .focus(node: "n1", screen: "home")),
            AnalyticsEntry(session: "s_a", at: hour + 3_600_000, version: 4, fact: .end(reason: "deleted")),
        ]
        for (entries, updated) in [(first, 100.0), (second, 200.0)] {
            let samples = try contract.analytics.recordAnalytics(entries, updated: updated)
            #expect(samples == (try reference.recordAnalytics(entries, updated: updated)))
        }
        let counts = try contract.analytics.analyticsCounts(from: nil, until: nil).sorted { $0.key < $1.key }
        #expect(counts == (try reference.analyticsCounts(from: nil, until: nil)).sorted { $0.key < $1.key })
        #expect(counts.contains { $0.key.screen == "profile" && $0.count == 1 })
        let laterHour = hour / 1000 + 3600
        #expect(try contract.analytics.analyticsCounts(from: laterHour, until: nil).allSatisfy { $0.key.bucket == laterHour })
        let paths = try contract.analytics.analyticsPaths(updatedSince: nil).sorted { $0.session < $1.session }
        #expect(paths == (try reference.analyticsPaths(updatedSince: nil)).sorted { $0.session < $1.session })
        #expect(try contract.analytics.analyticsPaths(updatedSince: 150).map(\.session) == ["s_a"])
        #expect(try contract.analytics.pruneAnalyticsPaths(updatedBefore: 150) == 1)
        #expect(try contract.analytics.analyticsPaths(updatedSince: nil).map(\.session) == ["s_a"])
    }
}
