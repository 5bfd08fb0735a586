import Foundation
import MinervaCoordinator
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
