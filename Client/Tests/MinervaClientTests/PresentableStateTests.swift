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

    private static func events(_ changes: [SessionChange]) -> [Event] {
        changes.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test func aSwipedSheetCancelsItsFlowAndTheParentHoldsTheResultUntilTaken() async throws {
        try await withTabsSession { session in
            let changes = Collected(await session.changes())
            let sheet = Sheet(detents: [.medium, .large], selected: "medium", grabber: true)
            var state = try await session.present("editProfile", sheet: sheet)
            let presented = state.focus
            #expect(state.node(presented)?.sheet?.selected == "medium")
            #expect(state.node(presented)?.presentation.level == .window)
            state = try await session.selectDetent("large", of: presented)
            #expect(state.node(presented)?.sheet?.selected == "large")
            state = try await session.reportDismissal(of: presented)
            let parent = try #require(state.node("n1"))
            #expect(parent.results?["editProfile"]?.status == .cancelled)
            state = try await session.takeResult(of: "editProfile", from: "n1")
            #expect(state.node("n1")?.results == nil)

            let block = Self.events(try await changes.waitFor(count: 5))
            let kinds = block.map { event -> String in
                switch event {
                case .added: "added"
                case .presentationChanged(let changed): "presentationChanged \(changed.selected ?? "-")"
                case .removed: "removed"
                case .finished(let finished): "finished \(finished.result.cause?.rawValue ?? "-") \(finished.result.interactive == true)"
                case .resultConsumed(let taken): "resultConsumed \(taken.screen)"
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
            state = try await session.setUI(["scrollAnchor": "p-3"], of: "n3")
            #expect(state.node("n3")?.ui != nil)
            state = try await session.reportPop()
            #expect(state.compactStack == ["n1", "n2"] && state.focus == "n2")
        }
    }
}
