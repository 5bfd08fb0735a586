@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Random operations on a tabs app and two three-column split apps, the user's interactive ones,
/// the app's changes of `dismissible` and size-class changes (collapses that dismiss) among them: the model never reaches a state a device could not show (a
/// presenter that was not visible, a window-level presentation under a tab switch), a refusal
/// changes nothing, and replaying each block gives the live tree (results, UI state, detents and
/// the size class included).
@Suite struct RandomPresentableStateTests {
    static let styles: [ModalStyle?] = [nil, .pageSheet, .formSheet, .fullScreen, .overCurrentContext, .currentContext, .popover]

    static func operate(
        on tree: inout CoordinatorTree, screens: [(String, [String: JSONValue])], tabs: [String], _ random: inout SeededGenerator
    ) throws(NavigationError) -> [NavigationEvent] {
        let node = tree.nodes.keys.sorted().randomElement(using: &random)!
        let (screen, params) = screens.randomElement(using: &random)!
        let interactive = Bool.random(using: &random)
        switch Int.random(in: 0..<14, using: &random) {
        case 0, 1: return try tree.navigate(screen: screen, params: params, from: Bool.random(using: &random) ? node : nil).events
        case 2:
            let style = styles.randomElement(using: &random)!
            let settings = PresentationSettings(anchor: style == .popover ? ["item": "c"] : nil, dismissible: Bool.random(using: &random) ? false : nil)
            return try tree.present(screen: screen, params: params, from: Bool.random(using: &random) ? node : nil, style: style, settings: settings)
                .events
        case 3: return try tree.push(screen: screen, params: params, from: Bool.random(using: &random) ? node : nil).events
        case 4: return try tree.dismiss(node: Bool.random(using: &random) ? node : nil, interactive: interactive)
        case 5, 6: return try tree.pop(interactive: interactive)
        case 7: return try tree.selectTab(tabs.randomElement(using: &random) ?? "none", dismiss: Bool.random(using: &random))
        case 8: return tree.setSizeClass(Bool.random(using: &random) ? .compact : .regular)
        case 9: return try tree.setUI(of: node, to: ["anchor": .int(Int.random(in: 0..<3, using: &random))])
        case 13: return try tree.changePresentation(of: node, selected: nil, dismissible: Bool.random(using: &random))
        case 10: return try tree.finish(node: tree.focus, status: Bool.random(using: &random) ? .success : .cancelled)
        case 11:
            let results = tree.nodes.values.flatMap { node in (node.results ?? [:]).keys.map { (node.id, $0) } }
            guard let (parent, screen) = results.randomElement(using: &random) else { return [] }
            return try tree.consumeResult(of: parent, screen: screen)
        default: return try tree.pop(navigator: nil, target: .root)
        }
    }

    static let mail: AppDescription = {
        let text = """
            {"name": "mail", "flows": {"inbox": {"root": {"split": {"columns": 3, "primary": {"screen": "accounts"}}}}},
             "launch": [{"flow": "inbox"}],
             "screens": {"accounts": {}, "mailbox": {"params": ["box"]}, "message": {"params": ["id"], "flow": true},
                         "compose": {"presentation": "present", "style": "formSheet", "embedInNavigation": true,
                                     "sheet": {"detents": ["medium", "large"]}}}}
            """
        return try! AppDescription.parse(Array(text.utf8), source: "mail")
    }()

    /// The mail app's split showing `primary` when compact: a collapse dismisses what the other columns present.
    static let news: AppDescription = {
        var app = mail
        app.flows["inbox"]!.root = .split(AppDescription.Split(columns: 3, primary: "accounts", compactTop: .primary))
        return app
    }()

    @Test(arguments: [1, 5, 42] as [UInt64], ["tabs", "mail", "news"])
    func randomOperationsReachOnlyStatesADeviceCanShow(seed: UInt64, app: String) {
        var random = SeededGenerator(state: seed)
        var tree = app == "tabs" ? CoordinatorTree(app: .tabs) : CoordinatorTree(app: app == "mail" ? Self.mail : Self.news)
        let screens: [(String, [String: JSONValue])] =
            app == "tabs"
            ? [("profile", ["userId": "1"]), ("editProfile", [:]), ("photo", ["photoId": "2"]), ("onboarding", [:]), ("followers", ["userId": "3"])]
            : [("mailbox", ["box": "in"]), ("message", ["id": "1"]), ("compose", [:])]
        let tabs = app == "tabs" ? ["home", "account"] : []
        var applied = 0
        for version in 2..<2500 {
            let before = tree
            do throws(NavigationError) {
                let events = try Self.operate(on: &tree, screens: screens, tabs: tabs, &random)
                let block = tree.changeBlock(since: before, operationEvents: events)
                tree.keepResults(of: block, version: version)
                #expect(block.isEmpty == (tree == before), "an operation changed the tree without an event, or the reverse")
                var replayed = before
                replayed.replay(block, version: version)
                #expect(replayed == tree, "replaying the block gives another tree")
                applied += 1
            } catch {
                #expect(tree == before, "a refused operation changed the tree: \(error)")
            }
            // Includes: every presenter was visible when it presented; no window cover under a tab switch.
            tree.checkInvariants()
            if tree != before, applied % 53 == 0 {
                #expect((try? CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: tree.app)) == tree)
            }
        }
        #expect(applied > 500)
    }
}
