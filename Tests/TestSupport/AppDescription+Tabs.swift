import Foundation
public import MinervaCoordinator

extension AppDescription {
    /// A single-root app with a tab bar (home and account), profiles and followers, a settings
    /// screen guarded by `signedIn` behind a login sheet, a photo viewer and deep links: the
    /// built-in demo app of the releases before root flows, read from `tests/live/apps/tabs.json`
    /// (the file the live tests serve).
    public static let tabs: AppDescription = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tests/live/apps/tabs.json")
        return try! AppDescription.parse([UInt8](Data(contentsOf: file)), source: file.path)
    }()
}
