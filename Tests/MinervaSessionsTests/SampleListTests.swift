@testable import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
@testable import MinervaSessions
import Testing

/// A command asked `withSampleLists` puts the app description's sample list of each node it adds
/// in its own block: one version for the node and its first list, stored and read back as any
/// list is.
@Suite struct SampleListTests {
    /// The demo app, whose home, account, profile and followers screens carry sample lists.
    static func harness(storage: FaultyStorage? = nil, configuration: SessionConfiguration = SessionConfiguration(rateLimit: 0)) throws
        -> CoreHarness
    {
        try CoreHarness(app: .demo, storage: storage, configuration: configuration)
    }

    /// The cell ids of a node's list, section by section.
    static func cells(_ state: SessionState, _ node: Int) -> [[String]]? {
        state.lists[NodeID(node)]?.current.sections.map { $0.items.map(\.id) }
    }

    @Test func theNodesAStepAddsGetTheirSampleListsInTheSameBlock() throws {
        let harness = try Self.harness()
        let (session, _) = try harness.create()
        // Onboarded and signed in at once: the main flow's two tabs, home and account.
        let signedIn = try harness.run(.withSampleLists(.flags(set: ["onboarded", "signedIn"], clear: [])), on: session).get()
        var state = try harness.state(of: session)
        let home = try #require(state.tree.nodes.values.first { $0.screen == "home" })
        let account = try #require(state.tree.nodes.values.first { $0.screen == "account" })
        #expect(state.version == 2 && signedIn.events.allSatisfy { $0.version == 2 })
        let listed = signedIn.events.compactMap { event -> NodeID? in
            if case .listChanged(let node, 1, 0) = event.change { node } else { nil }
        }
        #expect(listed == [home.id, account.id].sorted())
        #expect(signedIn.events.last?.change.kind == .listChanged && signedIn.events.last?.isFinal == true)
        #expect(Self.cells(state, home.id.number) == [["u42", "u7", "u3"], ["p7"]])

        // A param written ":userId" takes the new node's own.
        let profile = try harness.run(.withSampleLists(.navigate(from: nil, screen: "profile", params: ["userId": "42"])), on: session).get()
        state = try harness.state(of: session)
        let profileNode = try #require(state.tree.nodes[state.focus])
        #expect(profile.events.count == 2 && profile.events.map(\.change.kind) == [.added, .listChanged])
        let followers = try #require(state.lists[profileNode.id]?.current.sections.first?.items.first)
        let content = try JSONParser.parse(followers.content.json).objectValue
        #expect(content?["navigate"] == .object(["screen": "followers", "params": ["userId": "42"]]))

        // A screen without a sample list gets none; without the ask, no screen does.
        _ = try harness.run(.withSampleLists(.navigate(from: nil, screen: "photo", params: ["photoId": "7"])), on: session).get()
        _ = try harness.run(.dismiss(node: nil), on: session).get()
        let plain = try harness.run(.navigate(from: nil, screen: "followers", params: ["userId": "42"]), on: session).get()
        state = try harness.state(of: session)
        #expect(plain.events.map(\.change.kind) == [.added])
        #expect(state.lists.count == 3)
    }

    @Test func aSampleListOverTheServersLimitRefusesTheStepNamingTheScreen() throws {
        let harness = try Self.harness(configuration: SessionConfiguration(maxListItems: 2, rateLimit: 0))
        let (session, _) = try harness.create()
        let outcome = harness.run(.withSampleLists(.flags(set: ["onboarded", "signedIn"], clear: [])), on: session)
        guard case .failure(let error) = outcome else {
            Issue.record("a sample list of three cells went past a limit of two")
            return
        }
        #expect(error.category == .invalid && error.description.contains("the sample list of screen 'home'"))
        let state = try harness.state(of: session)
        #expect(state.version == 1 && state.lists.isEmpty && state.tree.flags.isEmpty)
    }

    @Test func sampleListsPutWithTheirNodesAreReadBackFromTheStore() throws {
        let storage = try FaultyStorage()
        let (id, token): (String, String)
        let before: SessionState
        do {
            let harness = try Self.harness(storage: storage)
            let (session, made) = try harness.create()
            (id, token) = (session.id, made)
            _ = try harness.run(.withSampleLists(.flags(set: ["onboarded", "signedIn"], clear: [])), on: session).get()
            _ = try harness.run(.withSampleLists(.navigate(from: nil, screen: "profile", params: ["userId": "7"])), on: session).get()
            before = try harness.state(of: session)
        }
        let restarted = try Self.harness(storage: storage)
        let after = try restarted.state(of: try restarted.core.session(id, token: token))
        #expect(after.version == before.version && after.lists.count == 3)
        for (node, list) in before.lists {
            #expect(after.lists[node]?.current == list.current && after.lists[node]?.version == list.version)
        }
    }
}
