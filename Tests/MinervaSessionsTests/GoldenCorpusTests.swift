import Foundation
import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions
import Testing
import TestSupport

/// The model's golden corpus (`Model/Corpus/`): each file a session of one test app driven by
/// random changes of every navigation and node operation, valid and not, a third of them numbered
/// by a device, with the block (or refusal) the step made of each. This build's step must make exactly that, at the corpus's model version;
/// the Swift client's tests run the same files with the same model.
///
/// After a change of the model's rules, bump ``ModelVersion/current`` and write the corpus again:
/// `MINERVA_WRITE_CORPUS=1 swift test --filter GoldenCorpusTests`. Writing refuses to replace a
/// file whose outcomes changed while the version stayed.
@Suite struct GoldenCorpusTests {
    /// A corpus file: the session it drives.
    struct Subject: Sendable, CustomStringConvertible {
        let app: String
        var layout: Layout = .stack
        var flags: [String] = []
        let seed: UInt64
        var description: String { app.replacingOccurrences(of: ".json", with: "") + (layout == .split ? "-split" : "") }
        var file: URL { GoldenCorpusTests.folder.appendingPathComponent("\(description).json") }
    }

    static let subjects = [
        Subject(app: "tabs.json", seed: 1), Subject(app: "basic.json", layout: .split, seed: 2), Subject(app: "fit.json", seed: 3),
        Subject(app: "bank.json", flags: ["onboarded"], seed: 4), Subject(app: "news.json", seed: 5), Subject(app: "food.json", seed: 6),
        Subject(app: "mail.json", seed: 7), Subject(app: "coffee.json", flags: ["onboarded"], seed: 8),
    ]

    /// `Model/Corpus/`.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Model/Corpus")

    @Test(arguments: subjects)
    func theStepMakesWhatTheCorpusRecorded(subject: Subject) throws {
        let recorded = try? StepCorpus(bytes: [UInt8](Data(contentsOf: subject.file)))
        if ProcessInfo.processInfo.environment["MINERVA_WRITE_CORPUS"] == "1" {
            let fresh = try Self.record(subject)
            if let recorded, recorded.modelVersion == ModelVersion.current, try !recorded.mismatches().isEmpty {
                Issue.record("\(subject): the step's output changed at model version \(ModelVersion.current): bump ModelVersion.current first")
                return
            }
            try Data(fresh.bytes).write(to: subject.file)
            return
        }
        let corpus = try #require(recorded, "\(subject.file.path) is missing: MINERVA_WRITE_CORPUS=1 swift test --filter GoldenCorpusTests")
        #expect(corpus.modelVersion == ModelVersion.current, "the corpus is of model version \(corpus.modelVersion): write it again")
        let mismatches = try corpus.mismatches()
        #expect(mismatches.isEmpty, "\(subject): \(mismatches.prefix(3).joined(separator: "\n"))")
        // A corpus that exercises the step: many blocks, refusals of each kind, ids no event shows.
        let blocks = corpus.changes.filter { if case .block = $0.outcome { true } else { false } }.count
        #expect(blocks >= 60 && corpus.changes.count - blocks >= 20, "\(subject): \(blocks) blocks of \(corpus.changes.count)")
    }

    @Test func aBlockThatDiffersFromTheCorpusIsFound() throws {
        var corpus = try StepCorpus(bytes: [UInt8](Data(contentsOf: Self.subjects[0].file)))
        let index = try #require(corpus.changes.firstIndex { if case .block = $0.outcome { true } else { false } })
        guard case .block(var events) = corpus.changes[index].outcome, case .object(var first) = events[0] else { return }
        first["at"] = "2000-01-01T00:00:00.000Z"
        events[0] = .object(first)
        corpus.changes[index].outcome = .block(events)
        #expect(try corpus.mismatches().count == 1)
        corpus.changes[index].outcome = .refused(category: "conflict", code: nil)
        #expect(try corpus.mismatches().first?.hasPrefix("change \(index) ") == true)
    }

    /// The subject's session driven by its seed's random changes.
    static func record(_ subject: Subject) throws -> StepCorpus {
        let source = try JSONParser.parse([UInt8](Data(contentsOf: AppDescription.testAppsFolder.appendingPathComponent(subject.app))))
        let app = AppDescription.testApp(named: subject.app)
        var random = SeededGenerator(state: subject.seed)
        return try StepCorpus.recording(
            app: source, layout: subject.layout, flags: subject.flags, limits: SessionConfiguration.standard.limits, count: 200
        ) { state in
            let (operation, body) = change(for: state, app: app, &random)
            return (operation, body, number(for: state, &random))
        }
    }

    /// A third of the changes are numbered by one of two devices: mostly with the device's next
    /// number, now and then with one it used already or one past the next.
    static func number(for state: SessionState, _ random: inout SeededGenerator) -> DeviceChange? {
        guard Int.random(in: 0..<3, using: &random) == 0 else { return nil }
        let device = Bool.random(using: &random) ? "phone" : "tablet:2"
        let next = (state.devices[device]?.seq ?? 0) + 1
        let seq = switch Int.random(in: 0..<12, using: &random) {
        case 0: max(1, next - 1)
        case 1: next + 1
        default: next
        }
        return try? DeviceChange(device: device, seq: seq)
    }

    /// A random change of one of the navigation or node operations, valid or not, as the API takes it.
    static func change(for state: SessionState, app: AppDescription, _ random: inout SeededGenerator) -> (StepCorpus.Operation, JSONValue) {
        let tree = state.tree
        let ids = tree.nodes.keys.sorted() + [nil]
        let id = ids.randomElement(using: &random)!
        let shown = id.flatMap { tree.nodes[$0] }
        let node = id?.description ?? "n\(tree.idCounters.nextNode + 3)"
        let value = JSONValue.int(Int.random(in: 0..<3, using: &random))
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            // One of the screen's params mostly, now and then one it does not declare.
            let declared = shown.flatMap { app.screens[$0.screen]?.params } ?? []
            let key = Int.random(in: 0..<4, using: &random) == 0 ? "undeclared" : declared.randomElement(using: &random) ?? "undeclared"
            return (.node(.params, node: node, screen: nil), .object(["set": .object([key: .string("\(value)")])]))
        case 1: return (.node(.ui, node: node, screen: nil), .object(["scroll": value]))
        case 2:
            let detents = shown?.settings?.sheet?.detents.map(\.id) ?? []
            let body: JSONValue =
                Bool.random(using: &random)
                ? .object(["selected": .string(detents.randomElement(using: &random) ?? "large")])
                : .object(["dismissible": .bool(Bool.random(using: &random))])
            return (.node(.presentation, node: node, screen: nil), body)
        case 3:
            let held = shown?.results.map { $0.keys.sorted() } ?? []
            let screen = held.randomElement(using: &random) ?? app.screens.keys.sorted().randomElement(using: &random)!
            return (.node(.results, node: node, screen: screen), .object([:]))
        case 4:
            let item = JSONValue.object(["id": .string("\(Int.random(in: 0..<3, using: &random))"), "kind": "row", "content": value])
            return (.node(.list, node: node, screen: nil), .object(["sections": .array([.object(["id": "a", "items": .array([item])])])]))
        case 5:
            // Mostly a node that has a list, whose cells the patch may name.
            let listed = Int.random(in: 0..<4, using: &random) > 0 ? state.lists.keys.sorted().randomElement(using: &random)?.description : nil
            return (.node(.listPatch, node: listed ?? node, screen: nil), listPatch(value: value, &random))
        default:
            let (operation, body) = navigation(for: state, app: app, &random)
            return (.navigation(operation), body)
        }
    }

    /// A random list patch, its body readable, its change valid or not: a cell deleted, upserted (in
    /// place, at a section's end or before another) or moved, by ids of the cells the corpus's
    /// lists hold now and then.
    static func listPatch(value: JSONValue, _ random: inout SeededGenerator) -> JSONValue {
        let cell = { (random: inout SeededGenerator) in JSONValue.string("\(Int.random(in: 0..<3, using: &random))") }
        var place: [String: JSONValue] = [:]
        if Bool.random(using: &random) { place["section"] = Bool.random(using: &random) ? "a" : "b" }
        if Bool.random(using: &random) { place["before"] = cell(&random) }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .object(["delete": .array([cell(&random)])])
        case 1: return .object(["upsert": .array([.object(place.merging(["cell": .object(["id": cell(&random), "kind": "row", "content": value])]) { $1 })])])
        default:
            // A move names where: its body must read (the corpus records what the step makes of a change).
            if place.isEmpty { place["section"] = "a" }
            return .object(["move": .array([.object(place.merging(["id": cell(&random)]) { $1 })])])
        }
    }

    /// A random change of one of the navigation operations, valid or not, as the API takes it.
    static func navigation(for state: SessionState, app: AppDescription, _ random: inout SeededGenerator) -> (NavigationOperation, JSONValue) {
        let tree = state.tree
        let ids = tree.nodes.keys.sorted().map(\.description) + ["n\(tree.idCounters.nextNode + 3)"]
        let node = JSONValue.string(ids.randomElement(using: &random)!)
        let (screen, entry) = app.screens.sorted(by: { $0.key < $1.key }).randomElement(using: &random)!
        let params = JSONValue.object(Dictionary(uniqueKeysWithValues: entry.params.map { ($0, JSONValue.string("\(Int.random(in: 0..<3, using: &random))")) }))
        var target: [String: JSONValue] = ["screen": .string(screen), "params": params]
        if Bool.random(using: &random) { target["from"] = node }
        let launchFlags = app.launch.flatMap { [$0.ifFlag, $0.unless].compactMap { $0 } }
        let flags = Set(app.screens.values.compactMap(\.guarded?.flag) + app.flows.values.compactMap(\.completes) + launchFlags).sorted()
        switch Int.random(in: 0..<15, using: &random) {
        case 0, 1, 2: return (.navigate, .object(target))
        case 3: return (.push, .object(target))
        case 4: return (.present, .object(target.merging(["embedInNavigation": .bool(Bool.random(using: &random))]) { $1 }))
        case 5: return (.dismiss, Bool.random(using: &random) ? .object(["node": node]) : .object([:]))
        case 6: return (.pop, .object(["toRoot": .bool(Bool.random(using: &random))]))
        case 7: return (.pop, .object(["to": node]))
        case 8: return (.setRoot, .object(["stack": .array([.object(["screen": .string(screen), "params": params])])]))
        case 9:
            guard let route = app.routes.randomElement(using: &random) else { return (.sizeClass, .object(["horizontal": "compact"])) }
            let path = route.segments.map { $0.hasPrefix(":") ? "\(Int.random(in: 0..<3, using: &random))" : $0 }.joined(separator: "/")
            return (.deepLink, .object(["url": .string("/" + path)]))
        case 10:
            let status = JSONValue.string(Bool.random(using: &random) ? "success" : "cancelled")
            return (.finish, .object(["node": .string(tree.focus.description), "result": .object(["status": status, "value": 1])]))
        case 11:
            if let tab = tree.tabs?.randomElement(using: &random)?.id { return (.selectTab, .object(["tab": .string(tab)])) }
            if tree.layout == .split, Bool.random(using: &random) {
                return (.displayMode, .object(["mode": .string(SplitDisplayMode.allCases.randomElement(using: &random)!.rawValue)]))
            }
            return (.sizeClass, .object(["horizontal": .string(Bool.random(using: &random) ? "compact" : "regular")]))
        case 12:
            let flag = JSONValue.string(flags.randomElement(using: &random) ?? "none")
            return (.flags, Bool.random(using: &random) ? .object(["set": [flag]]) : .object(["clear": [flag]]))
        case 13: return (.pop, .object(["node": Bool.random(using: &random) ? .string(tree.focus.description) : node]))
        default: return (.pop, .object([:]))
        }
    }
}
