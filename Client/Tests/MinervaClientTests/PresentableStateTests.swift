import Foundation
import MinervaClient
import OpenAPIRuntime
import Testing

/// Presentable state through the Swift client, against the real server: a sheet's detents and
/// the user's detent change, a swipe reported once it completed (and its cancelled result held on
/// the parent until taken), a back swipe, a tab change under a cover, the size class of a split
/// view, UI state — and every new event type decoded, each block's last carrying the focus.
@Suite struct PresentableStateTests {
    static let mail = LiveServer.tabsApp.deletingLastPathComponent().appendingPathComponent("mail.json")

    private static func events(_ changes: [SessionChange]) -> [SessionEvent] {
        changes.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    private static func node(_ id: String, in node: SessionNode) -> SessionNode? {
        node.id == id ? node : node.children.lazy.compactMap { Self.node(id, in: $0) }.first
    }

    @Test func aSwipedSheetCancelsItsFlowAndTheParentHoldsTheResultUntilTaken() async throws {
        try await withTabsSession { session in
            let changes = Collected(await session.changes())
            let sheet = MinervaSession.Sheet(detents: [.init(value1: .medium), .init(value1: .large)], selected: "medium", grabber: true)
            var state = try await session.present("editProfile", sheet: sheet)
            let presented = state.focus
            #expect(Self.node(presented, in: state.root)?.sheet?.selected == "medium")
            #expect(Self.node(presented, in: state.root)?.presentation.level == .window)
            state = try await session.selectDetent("large", of: presented)
            #expect(Self.node(presented, in: state.root)?.sheet?.selected == "large")
            state = try await session.reportDismissal(of: presented)
            let parent = try #require(Self.node("n1", in: state.root))
            #expect(parent.results?.additionalProperties["editProfile"]?.status == .cancelled)
            state = try await session.takeResult(of: "editProfile", from: "n1")
            #expect(Self.node("n1", in: state.root)?.results == nil)

            let block = Self.events(try await changes.waitFor(count: 5))
            let kinds = block.map { event -> String in
                switch event {
                case .added: "added"
                case .presentationChanged(let changed): "presentationChanged \(changed.value2.selected)"
                case .removed: "removed"
                case .finished(let finished): "finished \(finished.value2.result.cause?.rawValue ?? "-") \(finished.value2.result.interactive == true)"
                case .resultConsumed(let taken): "resultConsumed \(taken.value2.screen)"
                default: "\(event)"
                }
            }
            #expect(kinds == ["added", "presentationChanged large", "removed", "finished dismiss true", "resultConsumed editProfile"])
            #expect(block.filter(\.isFinal).allSatisfy { $0.focus != nil } && block.filter { !$0.isFinal }.allSatisfy { $0.focus == nil })
        }
    }

    @Test func aTabChangeUnderACoverNeedsDismissAndABackSwipePopsOneScreen() async throws {
        try await withTabsSession { session in
            _ = try await session.push("profile", params: ["userId": "1"])
            _ = try await session.present("photo", params: ["photoId": "2"])
            do {
                _ = try await session.selectTab("account")
                Issue.record("a tab changed under a fullScreen cover")
            } catch let error as MinervaError {
                #expect(error.status == 409 && error.code == .covered)
            }
            var state = try await session.selectTab("account", dismiss: true)
            #expect(state.tabs?.selected == "account")
            state = try await session.selectTab("home")
            state = try await session.reportPop()
            #expect(state.focus == "n1")
        }
    }

    @Test func aSplitViewCollapsesWithTheSizeClassAndUIStateIsKept() async throws {
        try await withLiveServer(["--app", Self.mail.path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            _ = try await session.navigate(to: "mailbox", params: ["box": "in"], from: "n1")
            var state = try await session.navigate(to: "message", params: ["id": "7"], from: "n2")
            #expect(state.collapsed == false && state.sizeClass == .regular)
            state = try await session.setSizeClass(.compact)
            #expect(state.collapsed == true && state.compactStack == ["n1", "n2", "n3"])
            state = try await session.setUI(try OpenAPIObjectContainer(unvalidatedValue: ["scrollAnchor": "p-3"]), of: "n3")
            #expect(Self.node("n3", in: state.root)?.ui != nil)
            state = try await session.reportPop()
            #expect(state.compactStack == ["n1", "n2"] && state.focus == "n2")
        }
    }
}
