public import MinervaCoordinator
import MinervaJSON
import MinervaList

extension SessionCommand {
    /// Runs the command on the state (``SessionState/step(_:limits:at:)`` gives it a copy).
    /// - Returns: the events the model reported (removals, flow results, a list change); the
    ///   step completes them into the change's block.
    /// - Throws: `notFound`, `invalid` or `conflict`, in that order of checks; `state` is then unchanged.
    func apply(to state: inout SessionState, limits: StepLimits) throws(SessionError) -> [SessionEvent.Change] {
        switch self {
        case let .push(from, screen, params):
            let origin = try Self.resolve(node: from, in: state.tree)
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in try tree.push(screen: screen, params: params, from: origin).events }
        case let .present(from, screen, params, styleText, embed, settings):
            let origin = try Self.resolve(node: from, in: state.tree)
            let style = try styleText.map { text throws(SessionError) in try Self.enumValue(text, field: "style", as: ModalStyle.self) }
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.present(screen: screen, params: params, from: origin, style: style, embedInNavigation: embed, settings: settings).events
            }
        case let .dismiss(node, interactive):
            let node = try Self.resolve(node: node, in: state.tree)
            return try navigation(&state) { tree throws(NavigationError) in try tree.dismiss(node: node, interactive: interactive) }
        case let .pop(navigator, to, toRoot, interactive, node):
            let navigator = try Self.resolve(navigator: navigator, in: state.tree)
            let to = try Self.resolve(node: to, in: state.tree)
            let node = try Self.resolve(node: node, in: state.tree)
            if to != nil, toRoot { throw .invalid("give either 'to' or 'toRoot', not both") }
            if node != nil, to != nil || toRoot { throw .invalid("'node' pops that node only: give it without 'to' or 'toRoot'") }
            let target: CoordinatorTree.PopTarget = node.map { .node($0) } ?? to.map { .to($0) } ?? (toRoot ? .root : .top)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.pop(navigator: navigator, target: target, interactive: interactive)
            }
        case let .setRoot(navigator, stack):
            let navigator = try Self.resolve(navigator: navigator, in: state.tree)
            let entries = try SessionError.catching { () throws(NavigationError) in
                try stack.map { entry throws(NavigationError) in try entry.resolved(in: state.tree) }
            }
            for case .screen(_, let params) in entries { try checkParams(params, limits) }
            return try navigation(&state) { tree throws(NavigationError) in try tree.setRoot(navigator: navigator, entries: entries).events }
        case let .navigate(from, screen, params, settings):
            let origin = try Self.resolve(node: from, in: state.tree)
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.navigate(screen: screen, params: params, from: origin, settings: settings).events
            }
        case let .sizeClass(text):
            let horizontal = try Self.enumValue(text, field: "horizontal", as: SizeClass.self)
            return state.tree.setSizeClass(horizontal).map { .navigation($0) }
        case let .displayMode(text):
            let mode = try Self.enumValue(text, field: "mode", as: SplitDisplayMode.self)
            return try navigation(&state) { tree throws(NavigationError) in try tree.setDisplayMode(mode) }
        case let .changePresentation(node, selected, dismissible):
            let node = try Self.resolve(node: node, in: state.tree)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.changePresentation(of: node, selected: selected, dismissible: dismissible)
            }
        case let .deepLink(url):
            return try navigation(&state) { tree throws(NavigationError) in try tree.followLink(url) }
        case let .finish(node, statusText, value):
            let node = try Self.resolve(node: node, in: state.tree)
            let status = try Self.enumValue(statusText, field: "result.status", as: CoordinatorTree.FlowStatus.self)
            if let value {
                let bytes = value.encodedByteCount
                guard bytes <= limits.maxParamBytes else {
                    throw .invalid("a result value of \(bytes) bytes is over the limit of \(limits.maxParamBytes) (--max-param-bytes)")
                }
            }
            return try navigation(&state) { tree throws(NavigationError) in try tree.finish(node: node, status: status, value: value) }
        case let .selectTab(tab, dismiss):
            return try navigation(&state) { tree throws(NavigationError) in try tree.selectTab(tab, dismiss: dismiss) }
        case let .consumeResult(node, screen):
            let node = try Self.resolve(node: node, in: state.tree)
            return try navigation(&state) { tree throws(NavigationError) in try tree.consumeResult(of: node, screen: screen) }
        case let .putUI(node, ui):
            let node = try Self.resolve(node: node, in: state.tree)
            let bytes = JSONValue.object(ui).encodedByteCount
            guard bytes <= limits.maxUIBytes else {
                throw .invalid("UI state of \(bytes) bytes is over the limit of \(limits.maxUIBytes) per node (--max-ui-bytes)")
            }
            return try navigation(&state) { tree throws(NavigationError) in try tree.setUI(of: node, to: ui) }
        case let .flags(set, clear):
            return try navigation(&state) { tree throws(NavigationError) in try tree.updateFlags(set: set, clear: clear) }
        case let .updateParams(node, set, unset):
            let node = try Self.resolve(node: node, in: state.tree)
            let changes = try navigation(&state) { tree throws(NavigationError) in try tree.updateParams(node: node, set: set, unset: unset) }
            // The node's params as they are now count against the limit, not only those set.
            try checkParams(state.tree[node: node].params, limits)
            return changes
        case let .putList(node, sections):
            return [try putList(try Self.resolve(node: node, in: state.tree), sections, on: &state, limits: limits)]
        case let .patchList(node, patch):
            let node = try Self.resolve(node: node, in: state.tree)
            guard let list = state.lists[node] else { throw .notFound("node '\(node)' has no list yet; PUT one first") }
            let sections: [ListSection]
            do throws(ListError) {
                sections = try patch.applied(to: list.current)
            } catch {
                throw .invalid(error.description)
            }
            return [try putList(node, sections, on: &state, limits: limits)]
        case let .moveToApp(app, from, version):
            // Another process may have moved it first (to this version or a newer one).
            guard state.appVersion == from, state.tree.obstacles(to: app).isEmpty else { return [] }
            let switched = state.tree.move(to: app)
            state.appVersion = version
            return [.appChanged(from: from, to: version)] + switched.map { .navigation($0) }
        case let .restore(target):
            return try target.apply(to: &state)
        case let .withSampleLists(command):
            return try apply(command, withSampleListsTo: &state, limits: limits)
        }
    }

    /// The handle of a node a command names by its wire id: the command's edge, where each id is
    /// resolved once before the operation runs.
    /// - Throws: `notFound` when the session has no such node.
    private static func resolve(node text: String?, in tree: CoordinatorTree) throws(SessionError) -> NodeID? {
        guard let text else { return nil }
        return try SessionError.catching { () throws(NavigationError) in try tree.resolve(node: text) }
    }

    /// The handle of a node a command names by its wire id, which it requires.
    private static func resolve(node text: String, in tree: CoordinatorTree) throws(SessionError) -> NodeID {
        try SessionError.catching { () throws(NavigationError) in try tree.resolve(node: text) }
    }

    /// The navigator a command names by its wire id.
    /// - Throws: `notFound` when the session has no such navigator.
    private static func resolve(navigator text: String?, in tree: CoordinatorTree) throws(SessionError) -> NavigatorID? {
        guard let text else { return nil }
        return try SessionError.catching { () throws(NavigationError) in try tree.resolve(navigator: text) }
    }

    /// Runs a model operation on the state's tree.
    private func navigation(
        _ state: inout SessionState, _ operation: (inout CoordinatorTree) throws(NavigationError) -> [NavigationEvent]
    ) throws(SessionError) -> [SessionEvent.Change] {
        do throws(NavigationError) {
            return try operation(&state.tree).map { .navigation($0) }
        } catch {
            throw SessionError(error, in: state)
        }
    }

    /// Replaces a node's list: its new version and the previous one.
    func putList(
        _ node: NodeID, _ sections: [ListSection], on state: inout SessionState, limits: StepLimits
    ) throws(SessionError) -> SessionEvent.Change {
        let content: ListContent
        do throws(ListError) {
            content = try ListContent(sections: sections, maximumItems: limits.maxListItems)
        } catch {
            throw .invalid(error.description)
        }
        let bytes = content.byteCount
        guard bytes <= limits.maxListBytes else {
            throw .invalid("the list holds \(bytes) bytes of cells, over the limit of \(limits.maxListBytes) (--max-list-bytes)")
        }
        let previous = state.lists[node]?.version ?? 0
        if state.lists[node]?.replace(with: content) == nil {
            state.lists[node] = ListHistory(content: content, retainedVersions: limits.listHistory)
        }
        return .listChanged(node: node, list: previous + 1, from: previous)
    }

    /// Refuses params over the per-node limit.
    private func checkParams(_ params: [String: JSONValue], _ limits: StepLimits) throws(SessionError) {
        let bytes = JSONValue.object(params).encodedByteCount
        guard bytes <= limits.maxParamBytes else {
            throw .invalid("params of \(bytes) bytes are over the limit of \(limits.maxParamBytes) per node (--max-param-bytes)")
        }
    }

    /// A wire value of one of the model's enums, or `invalid` naming the accepted values.
    private static func enumValue<T: RawRepresentable & CaseIterable>(_ text: String, field: String, as: T.Type) throws(SessionError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: text) else { throw .invalid(Excerpt.unknownValue(text, of: field, as: T.self)) }
        return value
    }
}

extension SessionError {
    /// Runs an operation of the coordinator tree, turning its refusal into a session's error.
    public static func catching<T>(_ operation: () throws(NavigationError) -> T) throws(SessionError) -> T {
        do throws(NavigationError) {
            return try operation()
        } catch {
            throw SessionError(error)
        }
    }

    /// The core's error for a refused navigation of a session in `state`: as ``init(_:)``, except
    /// that a screen or route the app does not declare is `appVersionConflict` for a
    /// session held back on an earlier app version by the screens it shows.
    public init(_ error: NavigationError, in state: SessionState) {
        let gone = state.tree.unknownScreens
        guard error.namesUndeclared, !gone.isEmpty else {
            self.init(error)
            return
        }
        self.init(
            .appVersionConflict,
            "\(error.description). The app changed: this session still runs an earlier version because it shows screens the app "
                + "no longer has (\(gone.joined(separator: ", "))); once they are popped or dismissed it moves to the current version")
    }

    /// The core's error for a refused navigation: unknown, invalid, or not possible now.
    public init(_ error: NavigationError) {
        switch error.category {
        case .notFound: self.init(.notFound, error.description)
        case .invalid: self.init(.invalid, error.description)
        case .conflict: self.init(.conflict, error.description, code: error.code)
        }
    }
}
