import MinervaClient

/// A user's session on the tabs app, the same every run: screens pushed and popped on two tabs,
/// a list put on every screen and changed in a few cells now and then, a sheet presented and
/// moved to another detent, the size class and UI state reported.
struct ScriptedSession {
    let session: MinervaSession
    private var step = 0

    init(session: MinervaSession) {
        self.session = session
    }

    /// Makes the next change.
    /// - Returns: the session version it made.
    mutating func change() async throws -> Int {
        defer { step += 1 }
        let state = await session.state
        switch step % 10 {
        case 0: try await session.push("profile", params: ["userId": .string(String(step))])
        case 1: _ = try await session.putList(Self.list(revision: step), on: state.focus)
        case 2: try await session.push("followers", params: ["userId": .string(String(step))])
        case 3: _ = try await session.putList(Self.list(revision: step), on: state.focus)
        case 4: try await session.setUI(["scrollAnchor": .string("c\(step % 20)")], of: state.focus)
        case 5: try await session.selectTab(state.tabs?.selected == "home" ? "account" : "home")
        case 6: _ = try await session.putList(Self.list(revision: step), on: state.focus)
        case 7: try await session.selectTab(state.tabs?.selected == "home" ? "account" : "home")
        case 8: _ = try await session.putList(Self.list(revision: step + 1), on: state.focus)
        default: try await session.pop()
        }
        return await session.version
    }

    /// Two sections of 20 cells; each revision changes the content of two cells and moves one.
    private static func list(revision: Int) -> [ListSection] {
        (0..<2).map { section in
            var items = (0..<20).map { item in
                ListItem(id: "s\(section)c\(item)", kind: "row", content: ["title": .string("Row \(item)"), "likes": .int(item)])
            }
            items[revision % 20].content = ["title": .string("Row \(revision % 20)"), "likes": .int(revision)]
            items[(revision * 7) % 20].content = ["title": .string("Edited"), "likes": .int(revision)]
            items.swapAt(0, revision % 20)
            return ListSection(id: "s\(section)", items: items)
        }
    }
}
