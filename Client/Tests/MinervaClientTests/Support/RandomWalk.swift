import MinervaClient

/// Random operations on a session of a known app: every operation of the session API, with
/// screens, params, nodes, navigators, tabs, flags, routes and versions drawn from the app and
/// the session's state, so that most succeed and some are refused (`409`, `422`, `404`).
struct RandomWalk {
    let app: AppDescription
    var generator: SeededGenerator

    /// One random operation: a change, or going back to an earlier version.
    enum Operation {
        /// A change of the session, described.
        case change(ChangeRequest, String)
        /// A restore of an earlier version.
        case restore(Int)
        /// Nothing to do (what was drawn needs something the state lacks).
        case nothing(String)
    }

    /// Makes one random operation and sends it.
    /// - Returns: what it did, and whether the server took it (a refusal is an answer too).
    mutating func step(on session: MinervaSession) async throws -> String {
        do {
            switch try operation(on: await session.state) {
            case .change(let request, let description):
                try await session.apply(request)
                return description
            case .restore(let version):
                try await session.restore(version: version)
                return "restore \(version)"
            case .nothing(let description):
                return description
            }
        } catch let error as MinervaError {
            return "refused: \(error.status)"
        }
    }

    /// Draws one random operation on a state.
    mutating func operation(on state: SessionState) throws -> Operation {
        let nodes = Self.nodes(below: state.root).map(\.id)
        let node = nodes.randomElement(using: &generator)!
        let from = Bool.random(using: &generator) ? node : nil
        let screen = app.screens.keys.sorted().randomElement(using: &generator)!
        let params = params(of: screen)
        let navigator = state.navigators.randomElement(using: &generator)!
        let presented = state.navigators.filter { $0.parent != nil }.compactMap(\.stack.first)
        func change(_ request: ChangeRequest, _ description: String) -> Operation { .change(request, description) }
        switch Int.random(in: 0..<22, using: &generator) {
        case 0, 1:
            return change(try .navigate(to: screen, params: params, from: from), "navigate \(screen) \(params) from \(from ?? "-")")
        case 2, 3:
            return change(try .push(screen, params: params, from: from), "push \(screen) \(params) from \(from ?? "-")")
        case 4:
            let style = ([nil, .pageSheet, .fullScreen, .formSheet, .currentContext, .overFullScreen] as [ModalStyle?]).randomElement(using: &generator)!
            return change(try .present(screen, params: params, style: style, from: from), "present \(screen) \(style?.rawValue ?? "-") from \(from ?? "-")")
        case 5:
            let sheet = Sheet(detents: [.medium, .custom(id: "peek", height: 120), .large], selected: "peek", grabber: true)
            let dismissible: Bool? = Bool.random(using: &generator) ? false : nil
            return change(
                try .present(screen, params: params, style: .pageSheet, sheet: sheet, dismissible: dismissible, from: from),
                "present \(screen) as a sheet from \(from ?? "-")")
        case 6:
            let target = Bool.random(using: &generator) ? presented.randomElement(using: &generator) : nil
            return change(.dismiss(target), "dismiss \(target ?? "-")")
        case 7:
            guard let top = presented.last else { return .nothing("report a dismissal: nothing presented") }
            return change(.dismiss(top, interactive: true), "report the dismissal of \(top)")
        case 8:
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return change(.pop(navigator: navigator.id), "pop \(navigator.id)")
            case 1: return change(.pop(navigator: navigator.id, toRoot: true), "pop \(navigator.id) to its root")
            case 2:
                let to = navigator.stack.randomElement(using: &generator)
                return change(.pop(to: to), "pop to \(to ?? "-")")
            default: return change(.pop(navigator: navigator.id, interactive: true), "report a pop of \(navigator.id)")
            }
        case 9:
            return change(try .setRoot(screen, params: params, navigator: navigator.id), "set-root \(screen) on \(navigator.id)")
        case 10:
            var stack = navigator.stack.shuffled(using: &generator).prefix(2).map { StackEntry(node: $0) }
            stack.insert(StackEntry(screen: screen, params: params), at: Int.random(in: 0...stack.count, using: &generator))
            return change(.setRoot(stack: stack, navigator: navigator.id), "set-root a stack \(stack) on \(navigator.id)")
        case 11:
            let link = deepLink()
            return change(.deepLink(link), "deep-link \(link)")
        case 12:
            let status: FlowStatus = Bool.random(using: &generator) ? .success : .cancelled
            let value: JSONValue? = Bool.random(using: &generator) ? ["picked": .int(Int.random(in: 0..<3, using: &generator))] : nil
            return change(try .finish(node, status: status, value: value), "finish \(node) \(status)")
        case 13:
            guard let tab = state.tabs?.items.randomElement(using: &generator) else { return .nothing("select a tab: no tabs") }
            let dismiss = Bool.random(using: &generator)
            return change(.selectTab(tab.id, dismiss: dismiss), "select tab \(tab.id)\(dismiss ? ", dismissing a cover" : "")")
        case 14:
            let flag = flags().randomElement(using: &generator) ?? "premium"
            return Bool.random(using: &generator) ? change(.flags(set: [flag]), "flags + \(flag)") : change(.flags(clear: [flag]), "flags - \(flag)")
        case 15:
            if let sections = state.node(node)?.list?.sections, Bool.random(using: &generator) {
                let patch = RandomLists.patch(of: sections, using: &generator)
                return change(.patchList(patch, on: node), "list patch \(patch) on \(node)")
            }
            return change(.putList(RandomLists.list(using: &generator), on: node), "list on \(node)")
        case 16:
            let ui: [String: JSONValue] = Bool.random(using: &generator) ? [:] : ["scroll": .int(Int.random(in: 0..<4, using: &generator))]
            return change(try .setUI(ui, of: node), "ui \(ui) on \(node)")
        case 17:
            if Bool.random(using: &generator) {
                let dismissible = Bool.random(using: &generator)
                return change(.setDismissible(dismissible, of: node), "dismissible \(dismissible) of \(node)")
            }
            guard let sheetNode = nodes.first(where: { state.node($0)?.sheet != nil }) else { return .nothing("select a detent: no sheet") }
            let detent = ["medium", "peek", "large"].randomElement(using: &generator)!
            return change(.selectDetent(detent, of: sheetNode), "detent \(detent) of \(sheetNode)")
        case 18:
            if state.layout == .split, Bool.random(using: &generator) {
                let modes: [SplitDisplayMode] = [
                    .automatic, .secondaryOnly, .oneBesideSecondary, .oneOverSecondary, .twoBesideSecondary, .twoOverSecondary, .twoDisplaceSecondary,
                ]
                let mode = modes.randomElement(using: &generator)!
                return change(.displayMode(mode), "display mode \(mode)")
            }
            let horizontal: SizeClass = Bool.random(using: &generator) ? .compact : .regular
            return change(.sizeClass(horizontal), "size class \(horizontal)")
        case 19:
            guard let shown = state.node(node), let declared = app.screens[shown.screen]?.params, !declared.isEmpty else {
                return .nothing("update params: none declared")
            }
            let set = Dictionary(uniqueKeysWithValues: declared.map { ($0, JSONValue.string(value())) })
            return change(try .updateParams(of: node, set: set), "params \(set) of \(node)")
        case 20:
            guard let holder = nodes.compactMap({ state.node($0) }).first(where: { $0.results != nil }),
                let held = holder.results?.keys.sorted().first
            else { return .nothing("take a result: none held") }
            return change(.takeResult(of: held, from: holder.id), "take the result of \(held) from \(holder.id)")
        default:
            return .restore(Int.random(in: max(1, state.version - 6)...state.version, using: &generator))
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
