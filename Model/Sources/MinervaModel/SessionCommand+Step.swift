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
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in try tree.push(screen: screen, params: params, from: from).events }
        case let .present(from, screen, params, styleText, embed, settings):
            if let from { try SessionError.catching { () throws(NavigationError) in try state.tree.requireNode(from) } }
            let style = try styleText.map { text throws(SessionError) in try Self.enumValue(text, field: "style", as: ModalStyle.self) }
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.present(screen: screen, params: params, from: from, style: style, embedInNavigation: embed, settings: settings).events
            }
        case let .dismiss(node, interactive):
            return try navigation(&state) { tree throws(NavigationError) in try tree.dismiss(node: node, interactive: interactive) }
        case let .pop(navigator, to, toRoot, interactive):
            if let to, toRoot {
                try SessionError.catching { () throws(NavigationError) in
                    if let navigator { try state.tree.requireNavigator(navigator) }
                    try state.tree.requireNode(to)
                }
                throw .invalid("give either 'to' or 'toRoot', not both")
            }
            let target: CoordinatorTree.PopTarget = to.map { .to($0) } ?? (toRoot ? .root : .top)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.pop(navigator: navigator, target: target, interactive: interactive)
            }
        case let .setRoot(navigator, stack):
            for case .screen(_, let params) in stack { try checkParams(params, limits) }
            return try navigation(&state) { tree throws(NavigationError) in try tree.setRoot(navigator: navigator, entries: stack).events }
        case let .navigate(from, screen, params, settings):
            try checkParams(params, limits)
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.navigate(screen: screen, params: params, from: from, settings: settings).events
            }
        case let .sizeClass(text):
            let horizontal = try Self.enumValue(text, field: "horizontal", as: SizeClass.self)
            return state.tree.setSizeClass(horizontal).map { .navigation($0) }
        case let .changePresentation(node, selected, dismissible):
            return try navigation(&state) { tree throws(NavigationError) in
                try tree.changePresentation(of: node, selected: selected, dismissible: dismissible)
            }
        case let .deepLink(url):
            return try navigation(&state) { tree throws(NavigationError) in try tree.deepLink(url).events }
        case let .finish(node, statusText, value):
            try SessionError.catching { () throws(NavigationError) in try state.tree.requireNode(node) }
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
            return try navigation(&state) { tree throws(NavigationError) in try tree.consumeResult(of: node, screen: screen) }
        case let .putUI(node, ui):
            try SessionError.catching { () throws(NavigationError) in try state.tree.requireNode(node) }
            let bytes = JSONValue.object(ui).encodedByteCount
            guard bytes <= limits.maxUIBytes else {
                throw .invalid("UI state of \(bytes) bytes is over the limit of \(limits.maxUIBytes) per node (--max-ui-bytes)")
            }
            return try navigation(&state) { tree throws(NavigationError) in try tree.setUI(of: node, to: ui) }
        case let .flags(set, clear):
            return try navigation(&state) { tree throws(NavigationError) in try tree.updateFlags(set: set, clear: clear) }
        case let .updateParams(node, set, unset):
            let changes = try navigation(&state) { tree throws(NavigationError) in try tree.updateParams(node: node, set: set, unset: unset) }
            // The node's params as they are now count against the limit, not only those set.
            if let id = NodeID(node), let params = state.tree.nodes[id]?.params { try checkParams(params, limits) }
            return changes
        case let .putList(node, sections):
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
        _ nodeText: String, _ sections: [ListSection], on state: inout SessionState, limits: StepLimits
    ) throws(SessionError) -> SessionEvent.Change {
        guard let node = NodeID(nodeText), state.tree.nodes[node] != nil else {
            throw .notFound("no node '\(nodeText.prefix(64))' in this session")
        }
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
