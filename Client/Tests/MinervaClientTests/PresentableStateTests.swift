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

    @Test func aSplitViewsDisplayModeIsStateAMirrorFollows() async throws {
        try await withLiveServer(["--app", Self.mail.path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            _ = try await session.navigate(to: "mailbox", params: ["box": "in"], from: "n1")
            #expect(try await mirror.next()?.displayMode == .automatic)
            var state = try await session.setDisplayMode(.secondaryOnly)
            #expect(state.displayMode == .secondaryOnly && state.focus == "n2")
            #expect(try await mirror.next() == state)
            state = try await session.setDisplayMode(.twoOverSecondary)
            #expect(try await mirror.next()?.displayMode == .twoOverSecondary)
            let error = await #expect(throws: MinervaError.self) { try await session.setDisplayMode(SplitDisplayMode(rawValue: "sideways")) }
            #expect(error?.status == 422)
        }
    }

    @Test func theAppStopsASwipeWhilePayingAndAMirrorFollowsEveryNewRule() async throws {
        let apps = LiveServer.tabsApp.deletingLastPathComponent()
        try await withLiveServer(["--app", apps.appendingPathComponent("food.json").path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            let cart = try await session.navigate(to: "cart").focus
            var state = try await session.setDismissible(false, of: cart)
            #expect(state.node(cart)?.dismissible == false)
            do {
                _ = try await session.reportDismissal(of: cart)
                Issue.record("a cart the app made non-dismissible was swiped away")
            } catch let error as MinervaError {
                #expect(error.status == 409 && error.code == .notDismissible)
            }
            state = try await session.setDismissible(true, of: cart)
            state = try await session.reportDismissal(of: cart)
            // The cart says it returns no result: the menu holds none to take.
            #expect(state.node("n1")?.results == nil)
            while let mirrored = try await mirror.next(), mirrored.version < state.version {}
            #expect(try await session.refresh() == state)
        }
        try await withLiveServer(["--app", apps.appendingPathComponent("news.json").path]) { server in
            let session = try await MinervaSession.create(on: server.connection())
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            _ = try await session.deepLink("/sections/world/articles/7")
            _ = try await session.present("share", sheet: nil, anchor: Anchor(item: "share"), from: "n3")
            let state = try await session.setSizeClass(.compact)
            #expect(state.navigators.count == 3 && state.focus == "n1")
            var mirrored = try #require(try await mirror.next())
            while mirrored.version < state.version { mirrored = try #require(try await mirror.next()) }
            #expect(mirrored == state)
        }
    }
}

/// A lock over a flow through the Swift client: predicted at once, a change beneath it refused by
/// the model before any request, and a mirror that follows it coming and going.
@Suite struct OverlayClientTests {
    static let bank = LiveServer.tabsApp.deletingLastPathComponent().appendingPathComponent("bank.json")

    @Test func aLockIsPredictedAChangeBeneathItRefusedAndAMirrorFollowsIt() async throws {
        try await withLiveServer(["--app", Self.bank.path]) { server in
            let session = try await MinervaSession.create(on: server.connection(), flags: ["onboarded", "verified", "signedIn"])
            var mirror = session.mirror().makeAsyncIterator()
            _ = try await mirror.next()
            let predicting = try await PredictingSession.start(session, device: "phone")
            try await predicting.apply(.flags(set: ["locked"]))
            let locked = await predicting.state
            #expect(locked.overlay == "lock" && locked.flow == "main" && locked.node(locked.focus)?.presentation.kind == .overlay)
            let refusal = await #expect(throws: MinervaError.self) { try await predicting.apply(.push("account", params: ["id": "1"], from: "n1")) }
            #expect(refusal?.status == 409 && refusal?.code == .overlaid)
            try await predicting.apply(.deepLink("/accounts/7"))
            await predicting.settled()
            #expect(try await session.refresh() == predicting.state)
            var followed = try #require(try await mirror.next())
            while followed.version < locked.version { followed = try #require(try await mirror.next()) }
            #expect(followed.overlay == "lock")
            try await predicting.apply(.flags(clear: ["locked"]))
            await predicting.settled()
            let unlocked = await predicting.state
            #expect(unlocked.overlay == nil && unlocked.pending == nil && unlocked.node(unlocked.focus)?.params["id"] == "7")
            #expect(try await session.refresh() == unlocked)
        }
    }
}
