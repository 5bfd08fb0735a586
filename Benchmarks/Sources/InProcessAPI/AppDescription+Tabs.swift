import Foundation
public import MinervaCoordinator
import MinervaJSON

extension AppDescription {
    /// The app every figure was taken with: one tab bar (home and account), profiles, a guarded
    /// settings screen, a photo viewer — the built-in demo app before root flows, read from the
    /// live tests' `tests/live/apps/tabs.json`.
    public static let tabs: AppDescription = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tests/live/apps/tabs.json")
        return try! AppDescription.parse([UInt8](Data(contentsOf: file)), source: file.path)
    }()

    /// ``tabs`` with one experiment that puts every session in its second variant (weights 0 and
    /// 1), which titles the settings screen otherwise: a session that never shows settings stays
    /// unexposed, so every change that adds a node looks for a differing screen (the costlier case).
    public static let tabsInExperiment = tabsWith(
        experiments: #"{"settings-title": {"variants": [{"name": "control", "weight": 0}, {"name": "b", "weight": 1, "patch": {"screens": {"settings": {"title": "Preferences"}}}}]}}"#)

    /// ``tabs`` with one experiment whose second variant (every session's) titles the profile
    /// screen otherwise and that counts a funnel of it: a session is exposed by its first push of
    /// a profile, and every push after brings the funnel's screen into focus again (a fact the
    /// store keeps once).
    public static let tabsCountedInExperiment = tabsWith(
        experiments: #"{"profile-title": {"variants": [{"name": "control", "weight": 0}, {"name": "b", "weight": 1, "patch": {"screens": {"profile": {"title": "Person"}}}}], "metrics": [{"name": "profile seen", "funnel": ["profile"]}]}}"#)

    /// ``tabs`` with `experiments` (their JSON) added.
    private static func tabsWith(experiments: String) -> AppDescription {
        var document = try! JSONParser.parse(tabs.document(version: nil))
        document = document.merging(patch: .object(["experiments": try! JSONParser.parse(Array(experiments.utf8))]))
        var writer = JSONWriter()
        writer.value(document)
        return try! AppDescription.parse(writer.bytes, source: "tabs.json with experiments")
    }
}
