@testable import MinervaCoordinator
import Testing

/// Tabs that adapt to a sidebar: the form follows the size class, and nothing else changes.
@Suite struct TabsFormTests {
    static let app = try! AppDescription.parse(
        Array(
            #"""
            {"name": "bank", "root": {"sidebar": true, "tabs": [{"id": "accounts", "screen": "accounts"}, {"id": "cards", "screen": "cards"}]},
             "screens": {"accounts": {}, "cards": {}, "account": {"params": ["id"]}}}
            """#.utf8), source: "bank.json")

    @Test func theFormIsASidebarAtRegularWidthAndATabBarAtCompactWithTheSameTree() throws {
        var tree = CoordinatorTree(app: Self.app)
        #expect(tree.tabsForm == .sidebar)
        try checked(&tree) { try $0.push(screen: "account", params: ["id": "1"]) }
        try checked(&tree) { try $0.selectTab("cards") }
        let before = tree
        let events = tree.setSizeClass(.compact)
        tree.checkInvariants()
        #expect(events.isEmpty && tree.tabsForm == .tabBar)
        #expect(tree.nodes == before.nodes && tree.navigators == before.navigators && tree.selectedTab == "cards")
        _ = tree.setSizeClass(.regular)
        #expect(tree.tabsForm == .sidebar)
    }

    @Test func tabsThatDoNotAdaptAndAppsWithoutTabsShowNoSidebar() throws {
        let plain = try AppDescription.parse(
            Array(#"{"name": "plain", "root": {"tabs": [{"id": "a", "screen": "accounts"}]}, "screens": {"accounts": {}}}"#.utf8), source: "plain.json")
        var tabs = CoordinatorTree(app: plain)
        #expect(tabs.tabsForm == TabsForm.tabBar)
        _ = tabs.setSizeClass(SizeClass.compact)
        #expect(tabs.tabsForm == TabsForm.tabBar)
        #expect(CoordinatorTree(app: .basic).tabsForm == nil)
    }

    @Test func theSidebarIsWrittenInTheAppDocumentAndReadBack() throws {
        let document = Self.app.document(version: nil)
        #expect(String(decoding: document, as: UTF8.self).contains(#""sidebar":true"#))
        #expect(try AppDescription.parse(document, source: "stored") == Self.app)
    }
}
