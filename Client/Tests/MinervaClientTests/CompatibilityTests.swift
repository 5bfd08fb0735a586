import MinervaClient
import OpenAPIRuntime
import Testing

/// Answers of a later release, with members, event types and values this client does not know,
/// decode: the client skips unknown members and keeps an unknown event or value as it came.
@Suite struct CompatibilityTests {
    @Test func answersWithAddedMembersDecode() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection(middlewares: [AnswersAsANewerServer()]))
            let state = try await session.navigate(to: "profile", params: ["userId": "42"])
            #expect(state.version == 2 && state.tabs?.selected == "home")
            let put = try await session.putList([ListSection(id: "a", items: [ListItem(id: "1", kind: "user")])], on: state.focus)
            #expect(put.version == 1)
            #expect(try await session.list(of: state.focus).sections.map(\.id) == ["a"])
            #expect(try await session.state(at: 2).focus == state.focus)
            #expect(try await session.refresh().version == 3)
        }
    }

    @Test func anEventOfAnUnknownTypeArrivesAsUnknown() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection(middlewares: [AnswersAsANewerServer()]))
            let changes = Collected(await session.changes(delivery: .longPoll))
            try await session.selectTab("account")
            try await session.push("profile", params: ["userId": "1"])
            try await session.pop()
            let events = try await changes.waitFor(count: 3).compactMap { change -> Event? in
                if case .event(let event) = change { event } else { nil }
            }
            #expect(events.map(\.seq) == [1, 2, 3])
            guard case .unknown(let moved) = events[0] else {
                Issue.record("expected the unknown event first: \(events)")
                return
            }
            #expect(moved.type == "tabMoved" && moved.fields.seq == 1 && events[0].isFinal)
            #expect(moved.json["to"] == "account")
            guard case .added = events[1], case .removed(let removed) = events[2] else {
                Issue.record("expected the known events after it: \(events)")
                return
            }
            #expect(removed.reason.rawValue == "swipedAway" && removed.reason != .pop)
        }
    }
}
