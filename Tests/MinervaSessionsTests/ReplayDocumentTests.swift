import MinervaCoordinator
import MinervaJSON
import MinervaList
import MinervaModel
import Testing
import TestSupport

/// What a client that mirrors a session does, on every app the live tests serve: it reads the
/// state document into a state, reads each change's events as the API shows them, and replays
/// them with the model's own replay; the document it then writes is the one the server writes
/// for the step's state.
@Suite struct ReplayDocumentTests {
    /// Limits that refuse nothing a random walk makes.
    static let limits = StepLimits(
        maxListItems: 100, maxListBytes: 1 << 20, maxNodes: 400, maxParamBytes: 2048, maxUIBytes: 4096, maxSessionBytes: 1 << 24, listHistory: 4,
        listHistoryBudget: 1 << 20)

    @Test(arguments: AppDescription.testAppNames, [1, 7] as [UInt64])
    func aMirrorReplaysEveryBlockToTheDocumentTheServerWrites(appName: String, seed: UInt64) throws {
        let app = AppDescription.testApp(named: appName)
        var random = SeededGenerator(state: seed)
        var state = SessionState(tree: CoordinatorTree(app: app), appVersion: "v1")
        var mirrored = try SessionState(document: Self.parse(Self.document(of: state)), app: app)
        var blocks = 0
        for round in 0..<600 {
            let command = Self.command(for: state, app: app, &random)
            guard let step = try? state.step(command, limits: Self.limits, at: 1_800_000_000_000 + round) else { continue }
            blocks += 1
            let read = try step.block.map { event in
                var writer = JSONWriter(capacity: 128)
                event.writeWire(into: &writer)
                return try SessionEvent(wire: Self.parse(writer.bytes), app: app)
            }
            #expect(read.map(\.seq) == step.block.map(\.seq) && read.map(\.at) == step.block.map(\.at))
            mirrored.replay(read)
            state = step.next
            let expected = Self.document(of: state)
            #expect(Self.document(of: mirrored) == expected, "after \(command)")
            #expect(mirrored.focus == state.focus)
            let recount = SessionState(
                tree: state.tree, appVersion: "v1", firstEvent: 1, version: 1, lastEvent: 0, structuralVersion: 1, lists: state.lists, listHistoryBudget: .max)
            #expect(recount.byteCount == state.byteCount, "after \(command): \(recount.byteCount) recounted, \(state.byteCount) counted")
            if recount.byteCount != state.byteCount { break }
            let reread = try SessionState(document: Self.parse(expected), app: app)
            #expect(Self.document(of: reread) == expected, "the document of \(command) read back")
            if Self.document(of: mirrored) != expected { break }
        }
        #expect(blocks > 100)
    }

    /// What a client that predicts a session's changes does: it reads the state document with
    /// its lists' cells (`lists=full`) and runs the step on it. Every step then makes the state
    /// the server's step makes: the same document, lists and byte count.
    @Test(arguments: AppDescription.testAppNames, [3] as [UInt64])
    func aStateReadFromItsDocumentStepsAsTheServersState(appName: String, seed: UInt64) throws {
        let app = AppDescription.testApp(named: appName)
        var random = SeededGenerator(state: seed)
        var state = SessionState(tree: CoordinatorTree(app: app), appVersion: "v1")
        var steps = 0
        for round in 0..<400 {
            let read = try SessionState(
                document: Self.parse(StateDocument.encode(sessionID: "s_test", state: state)), app: app, listHistory: Self.limits.listHistory)
            let command = Self.commandOrList(for: state, app: app, &random)
            let time = 1_800_000_000_000 + round
            let server = Result { () throws(SessionError) -> SessionState.Step? in try state.step(command, limits: Self.limits, at: time) }
            let client = Result { () throws(SessionError) -> SessionState.Step? in try read.step(command, limits: Self.limits, at: time) }
            switch (server, client) {
            case (.success(let server), .success(let client)):
                guard let server, let client else {
                    #expect(server == nil && client == nil, "\(command): one step changed nothing")
                    continue
                }
                steps += 1
                #expect(Self.listed(client.next) == Self.listed(server.next), "after \(command)")
                #expect(client.next.byteCount == server.next.byteCount, "after \(command)")
                #expect(client.next.lists.mapValues(\.current) == server.next.lists.mapValues(\.current), "after \(command)")
                #expect(client.block.count == server.block.count, "after \(command)")
                state = server.next
            case (.failure(let server), .failure(let client)):
                #expect(server.description == client.description)
            default:
                Issue.record("\(command): the server's step \(server), the client's \(client)")
                return
            }
        }
        #expect(steps > 100)
    }

    /// A random change, or a new list on a random node one time in five.
    static func commandOrList(for state: SessionState, app: AppDescription, _ random: inout SeededGenerator) -> SessionCommand {
        guard Int.random(in: 0..<5, using: &random) == 0 else { return command(for: state, app: app, &random) }
        let node = state.tree.nodes.keys.sorted().randomElement(using: &random)!.description
        let ids = Set((0..<Int.random(in: 0..<6, using: &random)).map { _ in Int.random(in: 0..<9, using: &random) }).sorted()
        return .putList(node: node, sections: [ListSection(id: "s", items: ids.map { Cell(id: "c\($0)", kind: "row", content: .string("c\($0)")) })])
    }

    /// The state document with each list's version and cell count, as text.
    static func listed(_ state: SessionState) -> String {
        String(decoding: StateDocument.encode(sessionID: "s_test", state: state, lists: .summary), as: UTF8.self)
    }

    /// The state document without lists, as text (a mirror keeps lists apart).
    static func document(of state: SessionState) -> String {
        String(decoding: StateDocument.encode(sessionID: "s_test", state: state, lists: .none), as: UTF8.self)
    }

    static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        try JSONParser.parse(Array(bytes))
    }

    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// A random change of any kind the API takes, valid or not, on the app's screens, routes,
    /// tabs and flags.
    static func command(for state: SessionState, app: AppDescription, _ random: inout SeededGenerator) -> SessionCommand {
        let tree = state.tree
        let node = tree.nodes.keys.sorted().randomElement(using: &random)!.description
        let from = Bool.random(using: &random) ? node : nil
        let (screenName, screen) = app.screens.sorted(by: { $0.key < $1.key }).randomElement(using: &random)!
        let params = Dictionary(uniqueKeysWithValues: screen.params.map { ($0, JSONValue.string("\(Int.random(in: 0..<3, using: &random))")) })
        let flags = Set(app.screens.values.compactMap(\.guarded?.flag) + app.flows.values.compactMap(\.completes)).sorted()
        switch Int.random(in: 0..<18, using: &random) {
        case 0, 1, 2: return .navigate(from: from, screen: screenName, params: params)
        case 3: return .push(from: from, screen: screenName, params: params)
        case 4:
            let settings = PresentationSettings(dismissible: Bool.random(using: &random) ? false : nil)
            return .present(from: from, screen: screenName, params: params, style: nil, embedInNavigation: Bool.random(using: &random), settings: settings)
        case 5: return .dismiss(node: Bool.random(using: &random) ? node : nil, interactive: Bool.random(using: &random))
        case 6: return .pop(navigator: nil, to: nil, toRoot: Bool.random(using: &random), interactive: Bool.random(using: &random))
        case 7: return .setRoot(navigator: nil, stack: [.screen(screenName, params: params)])
        case 8:
            guard let route = app.routes.randomElement(using: &random) else { return .sizeClass("compact") }
            let path = route.segments.map { $0.hasPrefix(":") ? "\(Int.random(in: 0..<3, using: &random))" : $0 }.joined(separator: "/")
            return .deepLink(url: "/" + path)
        case 9: return .finish(node: tree.focus.description, status: Bool.random(using: &random) ? "success" : "cancelled", value: .int(1))
        case 10: return .selectTab(tree.tabs?.randomElement(using: &random)?.id ?? "none", dismiss: Bool.random(using: &random))
        case 11: return .sizeClass(Bool.random(using: &random) ? "compact" : "regular")
        case 12: return .putUI(node: node, ui: Bool.random(using: &random) ? ["scroll": .int(Int.random(in: 0..<9, using: &random))] : [:])
        case 13: return .changePresentation(node: node, selected: nil, dismissible: Bool.random(using: &random))
        case 14:
            let holding = tree.nodes.values.filter { $0.results != nil }.sorted { $0.id < $1.id }
            guard let parent = holding.randomElement(using: &random)?.id, let screen = tree.nodes[parent]?.results?.keys.sorted().randomElement(using: &random) else {
                return .pop(navigator: nil, to: nil, toRoot: false)
            }
            return .consumeResult(node: parent.description, screen: screen)
        case 15:
            let flag = flags.randomElement(using: &random) ?? "none"
            return Bool.random(using: &random) ? .flags(set: [flag], clear: []) : .flags(set: [], clear: [flag])
        case 16: return .updateParams(node: node, set: ["extra": .int(1)], unset: [])
        default: return .pop(navigator: nil, to: nil, toRoot: false)
        }
    }
}
