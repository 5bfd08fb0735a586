extension ChangeRequest {
    /// The change with the node and navigator ids it names renamed: what a change predicted
    /// after one that made those ids names when that one, predicted again on a newer state, made
    /// others (`n7` became `n9`).
    /// - Parameter ids: new ids by old id; an id renamed to `""` names nothing any more (the model
    ///   then refuses the change as naming a node that does not exist).
    func renaming(_ ids: [String: String]) -> ChangeRequest {
        guard !ids.isEmpty else { return self }
        func renamed(_ id: String?) -> String? { id.map { ids[$0] ?? $0 } }
        func renamed(_ id: String) -> String { ids[id] ?? id }
        switch body {
        case .push(var body):
            body.from = renamed(body.from)
            return ChangeRequest(body: .push(body))
        case .present(var body):
            body.from = renamed(body.from)
            return ChangeRequest(body: .present(body))
        case .navigate(var body):
            body.from = renamed(body.from)
            return ChangeRequest(body: .navigate(body))
        case .dismiss(var body):
            body.node = renamed(body.node)
            return ChangeRequest(body: .dismiss(body))
        case .pop(var body):
            body.navigator = renamed(body.navigator)
            body.to = renamed(body.to)
            body.node = renamed(body.node)
            return ChangeRequest(body: .pop(body))
        case .setRoot(var body):
            body.navigator = renamed(body.navigator)
            body.stack = body.stack?.map { entry in
                var entry = entry
                entry.node = renamed(entry.node)
                return entry
            }
            return ChangeRequest(body: .setRoot(body))
        case .finish(var body):
            body.node = renamed(body.node)
            return ChangeRequest(body: .finish(body))
        case .params(let node, let body): return ChangeRequest(body: .params(node: renamed(node), body))
        case .ui(let node, let body): return ChangeRequest(body: .ui(node: renamed(node), body))
        case .presentation(let node, let body): return ChangeRequest(body: .presentation(node: renamed(node), body))
        case .takeResult(let node, let screen): return ChangeRequest(body: .takeResult(node: renamed(node), screen: screen))
        case .list(let node, let body): return ChangeRequest(body: .list(node: renamed(node), body))
        case .listPatch(let node, let body): return ChangeRequest(body: .listPatch(node: renamed(node), body))
        case .deepLink, .selectTab, .sizeClass, .displayMode, .flags: return self
        }
    }
}

extension ChangeRequest {
    /// The change with the node it starts from named: a push, a presentation or a navigation
    /// that names none starts from `focus` (the focus of the state it was made on), so that it is
    /// applied from the screen the user tapped on, wherever the session's focus is by the time it
    /// arrives, or refused.
    func startingFrom(_ focus: String) -> ChangeRequest {
        switch body {
        case .push(var body) where body.from == nil:
            body.from = focus
            return ChangeRequest(body: .push(body))
        case .present(var body) where body.from == nil:
            body.from = focus
            return ChangeRequest(body: .present(body))
        case .navigate(var body) where body.from == nil:
            body.from = focus
            return ChangeRequest(body: .navigate(body))
        default:
            return self
        }
    }
}
