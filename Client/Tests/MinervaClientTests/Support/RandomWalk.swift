import MinervaClient

/// Random operations on a session of a known app: every operation of the session API, with
/// screens, params, nodes, navigators, tabs, flags, routes and versions drawn from the app and
/// the session's state, so that most succeed and some are refused (`409`, `422`, `404`).
struct RandomWalk {
    let app: AppDescription
    var generator: SeededGenerator

    /// Makes one random operation.
    /// - Returns: what it did, and whether the server took it (a refusal is an answer too).
    mutating func step(on session: MinervaSession) async throws -> String {
        let state = await session.state
        let nodes = Self.nodes(below: state.root).map(\.id)
        let node = nodes.randomElement(using: &generator)!
        let from = Bool.random(using: &generator) ? node : nil
        let screen = app.screens.keys.sorted().randomElement(using: &generator)!
        let params = params(of: screen)
        let navigator = state.navigators.randomElement(using: &generator)!
        let presented = state.navigators.filter { $0.parent != nil }.compactMap(\.stack.first)
        let operation = Int.random(in: 0..<22, using: &generator)
        do {
            switch operation {
            case 0, 1:
                try await session.navigate(to: screen, params: params, from: from)
                return "navigate \(screen) \(params) from \(from ?? "-")"
            case 2, 3:
                try await session.push(screen, params: params, from: from)
                return "push \(screen) \(params) from \(from ?? "-")"
            case 4:
                let style = ([nil, .pageSheet, .fullScreen, .formSheet, .currentContext, .overFullScreen] as [ModalStyle?]).randomElement(using: &generator)!
                try await session.present(screen, params: params, style: style, from: from)
                return "present \(screen) \(style?.rawValue ?? "-") from \(from ?? "-")"
            case 5:
                let sheet = Sheet(detents: [.medium, .custom(id: "peek", height: 120), .large], selected: "peek", grabber: true)
                let dismissible: Bool? = Bool.random(using: &generator) ? false : nil
                try await session.present(screen, params: params, style: .pageSheet, sheet: sheet, dismissible: dismissible, from: from)
                return "present \(screen) as a sheet from \(from ?? "-")"
            case 6:
                let target = Bool.random(using: &generator) ? presented.randomElement(using: &generator) : nil
                try await session.dismiss(target)
                return "dismiss \(target ?? "-")"
            case 7:
                guard let top = presented.last else { return "report a dismissal: nothing presented" }
                try await session.reportDismissal(of: top)
                return "report the dismissal of \(top)"
            case 8:
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: try await session.pop(navigator: navigator.id)
                case 1: try await session.pop(navigator: navigator.id, toRoot: true)
                case 2: try await session.pop(to: navigator.stack.randomElement(using: &generator))
                default: try await session.reportPop(navigator: navigator.id)
                }
                return "pop \(navigator.id)"
            case 9:
                try await session.setRoot(screen, params: params, navigator: navigator.id)
                return "set-root \(screen) on \(navigator.id)"
            case 10:
                var stack = navigator.stack.shuffled(using: &generator).prefix(2).map { StackEntry(node: $0) }
                stack.insert(StackEntry(screen: screen, params: params), at: Int.random(in: 0...stack.count, using: &generator))
                try await session.setRoot(stack: stack, navigator: navigator.id)
                return "set-root a stack \(stack) on \(navigator.id)"
            case 11:
                let link = deepLink()
                try await session.deepLink(link)
                return "deep-link \(link)"
            case 12:
                let status: FlowStatus = Bool.random(using: &generator) ? .success : .cancelled
                let value: JSONValue? = Bool.random(using: &generator) ? ["picked": .int(Int.random(in: 0..<3, using: &generator))] : nil
                try await session.finish(node, status: status, value: value)
                return "finish \(node) \(status)"
            case 13:
                guard let tab = state.tabs?.items.randomElement(using: &generator) else { return "select a tab: no tabs" }
                if Bool.random(using: &generator) { try await session.selectTab(tab.id) } else { try await session.selectTab(tab.id, dismiss: true) }
                return "select tab \(tab.id)"
            case 14:
                let flag = flags().randomElement(using: &generator) ?? "premium"
                if Bool.random(using: &generator) { try await session.setFlags(set: [flag]) } else { try await session.setFlags(clear: [flag]) }
                return "flags ± \(flag)"
            case 15:
                try await session.putList(RandomLists.list(using: &generator), on: node)
                return "list on \(node)"
            case 16:
                let ui: [String: JSONValue] = Bool.random(using: &generator) ? [:] : ["scroll": .int(Int.random(in: 0..<4, using: &generator))]
                try await session.setUI(ui, of: node)
                return "ui \(ui) on \(node)"
            case 17:
                if Bool.random(using: &generator) {
                    let dismissible = Bool.random(using: &generator)
                    try await session.setDismissible(dismissible, of: node)
                    return "dismissible \(dismissible) of \(node)"
                }
                guard let sheetNode = nodes.first(where: { state.node($0)?.sheet != nil }) else { return "select a detent: no sheet" }
                let detent = ["medium", "peek", "large"].randomElement(using: &generator)!
                try await session.selectDetent(detent, of: sheetNode)
                return "detent \(detent) of \(sheetNode)"
            case 18:
                let horizontal: SizeClass = Bool.random(using: &generator) ? .compact : .regular
                try await session.setSizeClass(horizontal)
                return "size class \(horizontal)"
            case 19:
                guard let shown = state.node(node), let declared = app.screens[shown.screen]?.params, !declared.isEmpty else {
                    return "update params: none declared"
                }
                let set = Dictionary(uniqueKeysWithValues: declared.map { ($0, JSONValue.string(value())) })
                try await session.updateParams(of: node, set: set)
                return "params \(set) of \(node)"
            case 20:
                guard let holder = nodes.compactMap({ state.node($0) }).first(where: { $0.results != nil }),
                    let held = holder.results?.keys.sorted().first
                else { return "take a result: none held" }
                try await session.takeResult(of: held, from: holder.id)
                return "take the result of \(held) from \(holder.id)"
            default:
                let version = Int.random(in: max(1, state.version - 6)...state.version, using: &generator)
                try await session.restore(version: version)
                return "restore \(version)"
            }
        } catch let error as MinervaError {
            return "operation \(operation) refused: \(error.status)"
        }
    }

    /// Every node but the app coordinator.
    static func nodes(below node: Node) -> [Node] {
        node.children.flatMap { [$0] + nodes(below: $0) }
    }

    /// Values of params from a small pool, so that deep links and navigations often match nodes.
    private mutating func value() -> String {
        ["1", "2", "3"].randomElement(using: &generator)!
    }

    private mutating func params(of screen: String) -> Params {
        Dictionary(uniqueKeysWithValues: (app.screens[screen]?.params ?? []).map { ($0, JSONValue.string(value())) })
    }

    /// A route's path with its placeholders filled.
    private mutating func deepLink() -> String {
        guard let route = app.routes.randomElement(using: &generator) else { return "/" }
        var parts: [String] = []
        for part in route.path.split(separator: "/") {
            parts.append(part.hasPrefix(":") ? value() : String(part))
        }
        // A query sets the last screen's declared params; anything else is ignored.
        let query = ["", "?utm_source=mail", "?amount=\(value())&ref=x", "?id=\(value())"].randomElement(using: &generator)!
        return "/" + parts.joined(separator: "/") + query
    }

    /// The flags the app's launch rules, completing flows and guards name.
    private func flags() -> [String] {
        let launch = (app.launch ?? []).flatMap { [$0.requiredFlag, $0.excludedFlag].compactMap { $0 } }
        let completes = (app.flows ?? [:]).values.compactMap(\.completes)
        let guards = app.screens.values.compactMap(\.requires)
        return Array(Set(launch + completes + guards)).sorted()
    }
}
