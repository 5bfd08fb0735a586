import MinervaClient
import Testing

/// `putList`, `patchList` and `list(of:since:)` on the real server.
@Suite struct ListTests {
    private static let first: [ListSection] = [
        ListSection(id: "followers", items: [
            ListItem(id: "u1", kind: "user", content: "Ada"),
            ListItem(id: "u2", kind: "user", content: "Grace"),
        ])
    ]
    private static let second: [ListSection] = [
        ListSection(id: "followers", items: [
            ListItem(id: "u2", kind: "user", content: "Grace"),
            ListItem(id: "u1", kind: "user", content: "Ada Lovelace"),
        ])
    ]

    @Test func putListAnswersTheDiffAndMovesTheSessionVersion() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let created = try await session.putList(Self.first, on: "n1")
            #expect(created.version == 1 && created.diff.sections.inserted == [0])
            let changed = try await session.putList(Self.second, on: "n1")
            #expect(changed.version == 2 && changed.diff.items.moved.count == 1 && changed.diff.items.updated.count == 1)
            #expect(await session.version == 3)
            // The next change names version 3 in If-Match, which the server holds: no 412.
            #expect(try await session.navigate(to: "profile", params: ["userId": "1"]).version == 4)
        }
    }

    @Test func patchListChangesTheCellsItNamesAndAnswersTheDiff() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            try await session.putList(Self.first, on: "n1")
            let patched = try await session.patchList(
                ListPatch(
                    delete: ["u2"], upsert: [.init(cell: ListItem(id: "u3", kind: "user", content: "Linus"), before: "u1")],
                    move: [.init(id: "u1", section: "followers")]),
                on: "n1")
            #expect(patched.version == 2 && patched.diff.items.deleted.count == 1 && patched.diff.items.inserted.count == 1)
            #expect(await session.version == 3)
            let list = try await session.list(of: "n1")
            #expect(list.sections.first?.items.map(\.id) == ["u3", "u1"])
            await #expect(throws: MinervaError.self) { try await session.patchList(ListPatch(delete: ["u9"]), on: "n1") }
            #expect(await session.version == 3)
        }
    }

    @Test func aNavigationBringsTheNewScreensSampleListWhenAsked() async throws {
        try await withLiveServer(app: nil) { server in
            let session = try await MinervaSession.create(on: server.connection(), flags: ["onboarded", "signedIn"])
            let state = try await session.navigate(to: "profile", params: ["userId": "42"], sampleLists: true)
            #expect(state.version == 2 && state.focusedNode?.screen == "profile")
            let list = try await session.list(of: state.focus)
            #expect(list.version == 1 && list.sections.first?.items.map(\.id) == ["followers", "photo"])
            let plain = try await session.navigate(to: "followers", params: ["userId": "42"])
            #expect(plain.version == 3)
            await #expect(throws: MinervaError.self) { try await session.list(of: plain.focus) }
        }
    }

    @Test func listReadsTheDiffSinceAVersionOrAsksForAReload() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            for version in 1...35 { try await session.putList(version.isMultiple(of: 2) ? Self.second : Self.first, on: "n1") }
            let recent = try await session.list(of: "n1", since: 34)
            #expect(recent.version == 35 && recent.diff?.from == 34 && recent.sections.first?.items.map(\.id) == ["u1", "u2"])
            let old = try await session.list(of: "n1", since: 1)
            #expect(old.version == 35 && old.diff == nil)
        }
    }

    @Test func aNodeWithoutAListIsNotFound() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let error = try await #require(throws: MinervaError.self) { try await session.list(of: "n1") }
            #expect(error.status == 404 && error.code == .notFound)
        }
    }
}
