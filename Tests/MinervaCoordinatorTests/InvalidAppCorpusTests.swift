import Foundation
@testable import MinervaCoordinator
import Testing

/// The files of `Tests/InvalidApps`: app descriptions each refused with its JSON path.
@Suite struct InvalidAppCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("InvalidApps")

    /// Each file and the start of the error it must give.
    static let expected: [String: String] = [
        "top-level-typo.json": "top-level-typo.json: route: unknown field; did you mean 'routes'?",
        "screen-key-typo.json": "screen-key-typo.json: screens.photo.presentaton: unknown field; did you mean 'presentation'?",
        "screen-key-snake-case.json":
            "screen-key-snake-case.json: screens.login.embed_in_navigation: unknown field; did you mean 'embedInNavigation'?",
        "screen-key-unknown.json": "screen-key-unknown.json: screens.home.color: unknown field; the known fields are 'presentation', ",
        "otherwise-key-typo.json": "otherwise-key-typo.json: screens.settings.otherwise.param: unknown field; did you mean 'params'?",
        "root-key-typo.json": "root-key-typo.json: root.tab: unknown field; did you mean 'tabs'?",
        "tab-key-unknown.json": "tab-key-unknown.json: root.tabs[1].title: unknown field; the known fields are 'id', 'screen'",
        "route-key-typo.json": "route-key-typo.json: routes[1].step: unknown field; did you mean 'steps'?",
        "step-key-typo.json": "step-key-typo.json: routes[0].steps[1].prams: unknown field; did you mean 'params'?",
        "step-key-case.json": "step-key-case.json: routes[0].steps[0].Style: unknown field; did you mean 'style'?",
        "wrong-type.json": "wrong-type.json: screens.home.title: must be a string, not number",
        "undeclared-screen.json": "undeclared-screen.json: routes[0].steps[1].screen: 'nowhere' is not declared in screens",
        "route-step-missing-param.json":
            "route-step-missing-param.json: routes[1].steps[1].params: 'profile' requires the param 'userId': give it as a constant or as ':name' from the route's path",
        "launch-unknown-flow.json": "launch-unknown-flow.json: launch[1].flow: 'mian' is not declared in flows; did you mean 'main'?",
        "launch-last-can-fail.json": "launch-last-can-fail.json: launch[1]: the last rule must hold whatever the flags: remove its 'if' and 'unless'",
        "flow-unreachable.json": "flow-unreachable.json: flows.desk: no launch rule chooses 'desk': add one, or remove the flow",
        "route-without-flow.json":
            "route-without-flow.json: routes[0].flow: is required when the app has several flows: name the flow the link opens in",
        "key-not-a-param.json": "key-not-a-param.json: screens.workout.key[0]: must name a declared param (id)",
        "completes-read-by-no-rule.json":
            "completes-read-by-no-rule.json: flows.onboarding.completes: 'welcomed' is read by no launch rule, so finishing 'onboarding' would change nothing",
        "completing-flow-without-unless.json":
            "completing-flow-without-unless.json: launch[1]: chooses 'main', which completes 'fresh', without \"unless\": \"fresh\"",
        "root-and-flows.json": "root-and-flows.json: flows: give either 'root' (one flow) or 'flows' with 'launch', not both",
        "flow-named-like-a-node.json": "flow-named-like-a-node.json: flows.n1: 'n1' cannot name a flow: names of the form n<digits> are node ids",
        "sheet-on-pushed-screen.json":
            "sheet-on-pushed-screen.json: screens.details.sheet: a sheet's detents apply to a presented screen, and this one is pushed: give it \"presentation\": \"present\"",
        "sidebar-without-tabs.json":
            "sidebar-without-tabs.json: flows.main.root.sidebar: 'sidebar' is the form of a tab bar at regular width: give it with 'tabs'",
        "presented-tab-root.json":
            "presented-tab-root.json: root.tabs[1].screen: 'cart' is presented (a sheet or a cover over the tab bar), so it cannot be a tab's root: give the tab a pushed screen",
        "guarded-first-tab.json":
            "guarded-first-tab.json: root.tabs[0].screen: 'invest' requires 'investor', but the first tab is selected when the flow starts, where no guard can hold: put it on another tab, or guard the screens it leads to",
        "sample-list-key-typo.json": "sample-list-key-typo.json: screens.home.sampleList.section: unknown field; did you mean 'sections'?",
        "sample-cell-without-kind.json": "sample-cell-without-kind.json: screens.home.sampleList.sections[0].items[0].kind: is required",
        "sample-cell-duplicate-id.json":
            "sample-cell-duplicate-id.json: screens.home.sampleList.sections[1].items[0].id: 'u1' is the id of an earlier cell: cell ids are unique in the whole list",
        "sample-cell-navigate-typo.json":
            "sample-cell-navigate-typo.json: screens.home.sampleList.sections[0].items[0].content.navigate.param: unknown field; did you mean 'params'?",
        "sample-cell-undeclared-screen.json":
            "sample-cell-undeclared-screen.json: screens.home.sampleList.sections[0].items[1].content.navigate.screen: 'profil' is not declared in screens; did you mean 'profile'?",
        "sample-cell-missing-param.json":
            "sample-cell-missing-param.json: screens.home.sampleList.sections[0].items[0].content.navigate.params: 'profile' requires the param 'userId': give it as a constant or as ':name', a param of the screen the list is shown on",
        "sample-cell-unknown-node-param.json":
            "sample-cell-unknown-node-param.json: screens.home.sampleList.sections[0].items[0].content.navigate.params.userId: ':userId' is not a param of the screen the list is shown on (it declares none)",
    ]

    @Test func everyFileIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.expected.keys))
    }

    @Test(arguments: expected.keys.sorted())
    func eachFileIsRefusedWithItsPath(file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(file)))
        do {
            _ = try AppDescription.parse(bytes, source: file)
            Issue.record("accepted \(file)")
        } catch {
            #expect(error.description.hasPrefix(Self.expected[file]!), "\(error.description)")
        }
    }
}
