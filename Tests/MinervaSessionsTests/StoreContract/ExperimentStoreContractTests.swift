import MinervaSessions
import Testing

/// The contract of a store's experiment rows, on every store: written in the transaction of the
/// write that carries them (nothing of a conflicting write), each fact kept once with its first
/// and newest time, facts only for a session's experiments, rows that outlive their session, and
/// deletion by unit.
@Suite struct ExperimentStoreContractTests {
    typealias Records = StoreRecords

    static func unit(_ session: String, _ experiment: String = "onboarding", seed: String = "onboarding", unit: String, variant: String) -> ExperimentUnitRecord {
        ExperimentUnitRecord(session: session, experiment: experiment, seed: seed, unit: unit, variant: variant, assigned: 1_000)
    }

    static func fact(_ name: ExperimentFact.Name, at: Int, _ experiment: String = "onboarding") -> ExperimentFact {
        ExperimentFact(experiment: experiment, name: name, at: at)
    }

    /// A fact's times: first and newest.
    static func times(_ first: Int, _ last: Int? = nil) -> FactTimes {
        FactTimes(first: first, last: last ?? first)
    }

    /// `write` carrying experiment rows and facts.
    static func carrying(_ write: StorageWrite, units: [ExperimentUnitRecord] = [], facts: [ExperimentFact]) -> StorageWrite {
        guard case .session(var change) = write else { return write }
        change.experimentUnits = units
        change.experimentFacts = facts
        return .session(change)
    }

    /// The stored rows of `experiment`, by session: variant, unit and facts.
    static func rows(_ store: any SessionStorage, _ experiment: String = "onboarding", seed: String = "onboarding") throws -> [String: StoredExperimentUnit] {
        Dictionary(uniqueKeysWithValues: try store.experimentUnits(of: experiment, seed: seed).map { ($0.record.session, $0) })
    }

    @Test(arguments: StoreKind.available)
    func rowsAndFactsAreKeptWithTheirWriteWithTheirFirstAndNewestTime(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        let outcomes = try store.commit([
            Self.carrying(Records.creation("s_a"), units: [Self.unit("s_a", unit: "ada", variant: "short")], facts: [Self.fact(.exposed, at: 1_000)]),
            Self.carrying(Records.creation("s_b"), units: [Self.unit("s_b", unit: "bob", variant: "control")], facts: []),
            // Drawn with another seed (a bucket version since): not counted with this one.
            Self.carrying(
                Records.creation("s_c"), units: [Self.unit("s_c", seed: "onboarding/1", unit: "cy", variant: "control")], facts: [Self.fact(.exposed, at: 1_000)]),
        ])
        #expect(outcomes == [.committed, .committed, .committed])
        var rows = try Self.rows(store)
        #expect(Set(rows.keys) == ["s_a", "s_b"])
        #expect(rows["s_a"]?.record == Self.unit("s_a", unit: "ada", variant: "short") && rows["s_a"]?.facts == [.exposed: Self.times(1_000)])
        #expect(rows["s_b"]?.facts.isEmpty == true)
        #expect(try Self.rows(store, seed: "onboarding/1").keys.sorted() == ["s_c"])

        // A fact kept once, with its first and newest time; a fact of an experiment the session has no row of is not kept.
        #expect(
            try store.commit([
                Self.carrying(
                    Records.change("s_a", after: 0, events: 1...1),
                    facts: [Self.fact(.reached("menu"), at: 2_000), Self.fact(.exposed, at: 2_000), Self.fact(.exposed, at: 2_000, "cart")])
            ]) == [.committed])
        #expect(try store.commit([Self.carrying(Records.change("s_a", after: 1, events: 2...2), facts: [Self.fact(.reached("menu"), at: 3_000)])]) == [.committed])
        // Nothing of a conflicting write is kept, and the other writes of its group are.
        let group = try store.commit([
            Self.carrying(Records.change("s_a", after: 0, events: 1...1), facts: [Self.fact(.completed("onboarding"), at: 4_000)]),
            Self.carrying(Records.change("s_b", after: 0, events: 1...1), facts: [Self.fact(.exposed, at: 4_000), Self.fact(.reached("menu"), at: 4_000)]),
        ])
        #expect(group == [.conflict, .committed])
        rows = try Self.rows(store)
        #expect(rows["s_a"]?.facts == [.exposed: Self.times(1_000, 2_000), .reached("menu"): Self.times(2_000, 3_000)])
        #expect(rows["s_b"]?.facts == [.exposed: Self.times(4_000), .reached("menu"): Self.times(4_000)])
        #expect(try store.experimentUnits(of: "cart", seed: "cart").isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func rowsOutliveTheirSessionAndGoWithTheirUnit(kind: StoreKind) throws {
        let contract = try ContractStore(kind)
        let store = contract.store
        _ = try store.commit([
            Self.carrying(
                Records.creation("s_a"),
                units: [Self.unit("s_a", unit: "ada", variant: "short"), Self.unit("s_a", "cart", seed: "cart", unit: "s_a", variant: "pushed")],
                facts: [Self.fact(.exposed, at: 1_000), Self.fact(.exposed, at: 1_000, "cart")]),
            Self.carrying(Records.creation("s_b"), units: [Self.unit("s_b", unit: "ada", variant: "short")], facts: [Self.fact(.exposed, at: 1_500)]),
            Self.carrying(Records.creation("s_c"), units: [Self.unit("s_c", unit: "bob", variant: "control")], facts: [Self.fact(.exposed, at: 1_500)]),
        ])
        // A session deleted (or expired) stays counted.
        #expect(try store.commit([.delete(id: "s_c")]) == [.committed])
        #expect(try Self.rows(store)["s_c"]?.facts == [.exposed: Self.times(1_500)])
        // A user's assignments go in every experiment that holds them by that unit, with their facts.
        #expect(try store.deleteExperimentUnits(of: "ada") == 2)
        #expect(try Self.rows(store).keys.sorted() == ["s_c"])
        #expect(try Self.rows(store, "cart", seed: "cart").keys.sorted() == ["s_a"])
        #expect(try store.deleteExperimentUnits(of: "ada") == 0)
        // The session keeps running, its facts no longer kept.
        #expect(try store.commit([Self.carrying(Records.change("s_a", after: 0, events: 1...1), facts: [Self.fact(.reached("menu"), at: 2_000)])]) == [.committed])
        #expect(try Self.rows(store)["s_a"] == nil)
    }
}
