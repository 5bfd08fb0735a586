public import Foundation
public import MinervaCoordinator

extension AppDescription {
    /// A single-root app with a tab bar (home and account), profiles and followers, a settings
    /// screen guarded by `signedIn` behind a login sheet, a photo viewer and deep links: the
    /// built-in demo app of the releases before root flows, read from `tests/live/apps/tabs.json`
    /// (the file the live tests serve).
    public static let tabs: AppDescription = testApp(named: "tabs.json")

    /// The folder of the app files the live tests serve.
    public static let testAppsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tests/live/apps")

    /// The names of every file in ``testAppsFolder``, sorted.
    public static var testAppNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: testAppsFolder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// One of the app files the live tests serve (`bank.json`), parsed.
    public static func testApp(named name: String) -> AppDescription {
        let file = testAppsFolder.appendingPathComponent(name)
        return try! AppDescription.parse([UInt8](Data(contentsOf: file)), source: file.path)
    }
}
