import MinervaClient
import Testing

/// Every navigation operation of MinervaSession against the real server's tabs app; each
/// answers the typed state, which the session keeps.
@Suite struct NavigationTests {
    @Test func navigatePushesWhatTheAppDescriptionSays() async throws {
        try await withTabsSession { session in
            let state = try await session.navigate(to: "profile", params: ["userId": "42"])
            #expect(state.version == 2 && state.focusedScreen == "profile")
            #expect(state.node(state.focus)?.presentation.kind == .push)
            #expect(state.stackIDs(of: "tab:home") == ["n1", state.focus])
            #expect(await session.state == state)
            #expect(await session.version == 2)
        }
    }

    @Test func aStateNamesTheSelectedTabsNavigatorAndWhatEachNavigatorPresents() async throws {
        try await withTabsSession { session in
            try await session.selectTab("account")
            let state = try await session.present("photo", params: ["photoId": "7"])
            #expect(state.tabs?.selectedNavigator == "tab:account")
            let presented = try #require(state.navigator(presentedBy: "tab:account"))
            #expect(presented.stack == [state.focus] && presented.parent == "tab:account")
            #expect(state.navigator(presentedBy: presented.id) == nil && state.navigator(presentedBy: "tab:home") == nil)
            #expect(state.stack(of: "tab:account").map(\.screen) == ["account"])
        }
    }

    @Test func pushAddsToTheFocusedStack() async throws {
        try await withTabsSession { session in
            try await session.push("profile", params: ["userId": "1"])
            let state = try await session.push("followers", params: ["userId": "1"], from: "n3")
            #expect(state.stackIDs(of: "tab:home") == ["n1", "n3", "n4"])
            #expect(state.node("n4")?.params["userId"] == "1")
        }
    }

    @Test func aPopThatNamesItsNodePopsThatNodeOnly() async throws {
        try await withTabsSession { session in
            let profile = try await session.push("profile", params: ["userId": "1"]).focus
            let followers = try await session.push("followers", params: ["userId": "1"]).focus
            let refused = try await #require(throws: MinervaError.self) { try await session.pop(exactly: profile) }
            #expect(refused.status == 409 && refused.message.contains(followers))
            let state = try await session.pop(exactly: followers)
            #expect(state.stackIDs(of: "tab:home") == ["n1", profile])
        }
    }

    @Test func presentAndDismiss() async throws {
        try await withTabsSession { session in
            let presented = try await session.present("photo", params: ["photoId": "7"], style: .pageSheet)
            let photo = try #require(presented.node(presented.focus))
            #expect(photo.screen == "photo" && photo.presentation.style == .pageSheet)
            #expect(presented.navigators.first { $0.id == "tab:home" }?.presented == photo.id)
            let dismissed = try await session.dismiss()
            #expect(dismissed.focus == "n1" && dismissed.node(photo.id) == nil)
        }
    }

    @Test func popTheTopToANodeAndToTheRoot() async throws {
        try await withTabsSession { session in
            for userId in ["1", "2", "3", "4"] { try await session.push("profile", params: ["userId": .init(stringLiteral: userId)]) }
            #expect(try await session.pop().stackIDs(of: "tab:home") == ["n1", "n3", "n4", "n5"])
            #expect(try await session.pop(to: "n3").stackIDs(of: "tab:home") == ["n1", "n3"])
            #expect(try await session.pop(navigator: "tab:home", toRoot: true).stackIDs(of: "tab:home") == ["n1"])
        }
    }

    @Test func setRootReplacesTheStack() async throws {
        try await withTabsSession { session in
            let one = try await session.setRoot("profile", params: ["userId": "9"])
            #expect(one.stackIDs(of: "tab:home")?.count == 1 && one.focusedScreen == "profile")
            let stack: [StackEntry] = [
                StackEntry(screen: "home"),
                StackEntry(screen: "profile", params: ["userId": "5"]),
            ]
            let two = try await session.setRoot(stack: stack, navigator: "tab:home")
            #expect(two.stackIDs(of: "tab:home")?.compactMap { two.node($0)?.screen } == ["home", "profile"])
        }
    }

    @Test func setRootKeepsTheNodesItNamesAndTellsThatTheyMoved() async throws {
        try await withTabsSession { session in
            try await session.push("profile", params: ["userId": "1"])
            let changes = Collected(await session.changes())
            let state = try await session.setRoot(stack: [StackEntry(node: "n3"), StackEntry(screen: "home")], navigator: "tab:home")
            #expect(state.stackIDs(of: "tab:home")?.first == "n3" && state.node("n3")?.screen == "profile")
            let events = try await changes.waitFor(count: 3).compactMap { if case .event(let event) = $0 { event } else { nil } }
            guard case .stackChanged(let moved) = events.last else {
                Issue.record("expected stackChanged last: \(events)")
                return
            }
            #expect(moved.stack == state.stackIDs(of: "tab:home"))
        }
    }

    @Test func aDeepLinkToAGuardedScreenWaitsForItsFlowThenFinishResumesIt() async throws {
        try await withTabsSession { session in
            let waiting = try await session.deepLink("tabs://settings")
            #expect(waiting.tabs?.selected == "account" && waiting.focusedScreen == "login")
            let pending = try #require(waiting.pending)
            #expect(pending.steps?.map(\.screen) == ["settings"] && pending.operation == .navigate)
            let done = try await session.finish(pending.flow, status: .success)
            #expect(done.flags == ["signedIn"] && done.pending == nil && done.focusedScreen == "settings")
            #expect(try await session.link() == "/settings")
        }
    }

    @Test func selectTabAndSetFlags() async throws {
        try await withTabsSession { session in
            #expect(try await session.selectTab("account").tabs?.selected == "account")
            #expect(try await session.setFlags(set: ["beta", "signedIn"]).flags == ["beta", "signedIn"])
            let state = try await session.setFlags(set: ["gamma"], clear: ["beta"])
            #expect(state.flags == ["gamma", "signedIn"] && state.version == 4)
        }
    }
}
