@testable import MinervaCoordinator
import MinervaJSON
import Testing
import TestSupport

/// Split views of two and three columns: `showDetailViewController` semantics, empty columns,
/// the size class (compact: one column as one stack), Back across columns.
@Suite struct SplitViewTests {
    static let mail: AppDescription = {
        let text = """
            {"name": "mail", "flows": {"inbox": {"root": {"split": {"columns": 3, "primary": {"screen": "accounts"}}}}},
             "launch": [{"flow": "inbox"}],
             "screens": {"accounts": {"title": "Accounts"}, "mailbox": {"params": ["box"]}, "message": {"params": ["id"]},
                         "thread": {"params": ["id"]}, "compose": {"presentation": "present", "style": "formSheet"}}}
            """
        return try! AppDescription.parse(Array(text.utf8), source: "mail")
    }()

    func stacks(_ tree: CoordinatorTree) -> [String] {
        tree.columns.map { column in tree.navigators[column]!.stack.map { tree.nodes[$0]!.screen }.joined(separator: ",") }
    }

    @Test func navigateReplacesTheNextColumnAndEmptiesTheOnesAfterIt() throws {
        var tree = CoordinatorTree(app: Self.mail)
        #expect(tree.columns == [.primary, .supplementary, .detail] && stacks(tree) == ["accounts", "", ""])
        let box = try tree.navigate(screen: "mailbox", params: ["box": "in"], from: NodeID(1)).node
        let message = try tree.navigate(screen: "message", params: ["id": "1"], from: box).node
        _ = try tree.navigate(screen: "thread", params: ["id": "1"], from: message)
        #expect(stacks(tree) == ["accounts", "mailbox", "message,thread"])
        tree.checkInvariants()
        let events = try tree.navigate(screen: "mailbox", params: ["box": "sent"], from: NodeID(1)).events
        let removed = events.compactMap { event -> String? in
            if case .removed(let gone) = event { "\(gone.screen):\(gone.reason)" } else { nil }
        }
        #expect(Set(removed) == ["thread:setRoot", "message:setRoot", "mailbox:setRoot"])
        #expect(stacks(tree) == ["accounts", "mailbox", ""] && tree.focus == tree.navigators[.supplementary]!.stack[0])
        tree.checkInvariants()
    }

    @Test func poppingAColumnsRootEmptiesItAndTheFocusMovesBack() throws {
        var tree = CoordinatorTree(app: Self.mail)
        let box = try tree.navigate(screen: "mailbox", params: ["box": "in"], from: NodeID(1)).node
        _ = try tree.navigate(screen: "message", params: ["id": "1"], from: box)
        let events = try tree.pop()
        #expect(events.count == 1 && stacks(tree) == ["accounts", "mailbox", ""] && tree.focus == box)
        _ = try tree.pop()
        #expect(stacks(tree) == ["accounts", "", ""] && tree.focus == NodeID(1))
        #expect(throws: NavigationError.self) { try tree.pop() }
        tree.checkInvariants()
    }

    @Test func aCompactSplitViewShowsOneStackWithTheSameNodes() throws {
        var tree = CoordinatorTree(app: Self.mail)
        let box = try tree.navigate(screen: "mailbox", params: ["box": "in"], from: NodeID(1)).node
        let message = try tree.navigate(screen: "message", params: ["id": "1"], from: box).node
        let nodes = tree.nodes
        tree.setSizeClass(.compact)
        #expect(tree.nodes == nodes && tree.collapsed && tree.compactStack == [NodeID(1), box, message] && tree.focus == message)
        // Only the column on top is shown: the sidebar cannot present.
        do {
            _ = try tree.present(screen: "compose", from: NodeID(1))
            Issue.record("a hidden column presented")
        } catch {
            #expect(error.code == "not_visible")
        }
        _ = try tree.present(screen: "compose", from: message)
        _ = try tree.dismiss()
        // Back walks the compact stack across columns.
        _ = try tree.pop(interactive: true)
        #expect(tree.compactStack == [NodeID(1), box] && tree.focus == box)
        _ = try tree.pop(interactive: true)
        #expect(tree.compactStack == [NodeID(1)] && tree.focus == NodeID(1))
        tree.setSizeClass(.regular)
        #expect(!tree.collapsed && tree.compactStack == [NodeID(1)])
        tree.checkInvariants()
    }

    @Test func theLegacySplitLayoutEmptiesItsDetailOnPop() throws {
        var tree = CoordinatorTree(app: .basic, layout: .split)
        _ = try tree.navigate(screen: "profile", params: ["userId": "1"], from: NodeID(1))
        _ = try tree.pop(navigator: "detail")
        #expect(tree.navigators[.detail]!.stack.isEmpty && tree.focus == NodeID(1))
        #expect(throws: NavigationError.self) { try tree.pop(navigator: "detail") }
    }

    @Test func aWindowCoverBlocksAColumnChange() throws {
        var tree = CoordinatorTree(app: Self.mail)
        let box = try tree.navigate(screen: "mailbox", params: ["box": "in"], from: NodeID(1)).node
        _ = try tree.present(screen: "compose", from: box)
        do {
            _ = try tree.navigate(screen: "mailbox", params: ["box": "sent"], from: NodeID(1))
            Issue.record("a column changed under a window cover")
        } catch {
            #expect(error.code == "covered")
        }
    }

    @Test func theSizeClassSurvivesTheSnapshotAndTheReplay() throws {
        var tree = CoordinatorTree(app: Self.mail)
        let before = tree
        tree.setSizeClass(.compact)
        let block = tree.changeBlock(since: before, operationEvents: [])
        #expect(block == [.sizeClassChanged(.compact)])
        var replayed = before
        replayed.replay(block, version: 2)
        #expect(replayed == tree)
        #expect(try CoordinatorTree(snapshot: JSONParser.parse(tree.snapshotBytes), app: Self.mail) == tree)
    }
}
