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
    public static let tabsInExperiment: AppDescription = {
        let experiment = #"{"settings-title": {"variants": [{"name": "control", "weight": 0}, {"name": "b", "weight": 1, "patch": {"screens": {"settings": {"title": "Preferences"}}}}]}}"#
        var document = try! JSONParser.parse(tabs.document(version: nil))
        document = document.merging(patch: .object(["experiments": try! JSONParser.parse(Array(experiment.utf8))]))
        var writer = JSONWriter()
        writer.value(document)
        return try! AppDescription.parse(writer.bytes, source: "tabs.json in an experiment")
    }()
}
