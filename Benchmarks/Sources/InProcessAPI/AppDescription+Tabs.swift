import Foundation
public import MinervaCoordinator

extension AppDescription {
    /// The app every figure was taken with: one tab bar (home and account), profiles, a guarded
    /// settings screen, a photo viewer — the built-in demo app before root flows, read from the
    /// live tests' `tests/live/apps/tabs.json`.
    public static let tabs: AppDescription = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tests/live/apps/tabs.json")
        return try! AppDescription.parse([UInt8](Data(contentsOf: file)), source: file.path)
    }()
}
