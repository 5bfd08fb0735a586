import MinervaJSON

extension AppDescription {
    /// The routes whose steps cannot be shown in their flow, each with why: every route is
    /// followed on a fresh tree of its flow with every flag set and with none (`--check-app`
    /// refuses such a file; the server serves it and warns, and the link answers what fails).
    /// Path parameters take a placeholder value.
    public func unshowableRoutes() -> [String] {
        let everyFlag = Set(
            launch.flatMap { [$0.ifFlag, $0.unless] }.compactMap { $0 } + flows.values.compactMap(\.completes)
                + screens.values.compactMap { $0.guarded?.flag })
        var problems: [String] = []
        for (index, route) in routes.enumerated() {
            let steps = route.steps.map { step in
                var resolved = step
                resolved.params = step.params.mapValues { value in
                    if let text = value.stringValue, text.hasPrefix(":") { return .string(String(text.dropFirst())) }
                    return value
                }
                return resolved
            }
            for flags in [everyFlag, []] {
                var tree = CoordinatorTree(app: self, flow: route.flow, flags: flags)
                do throws(NavigationError) {
                    _ = try tree.reconcile(steps, tab: route.tab, of: route)
                } catch {
                    problems.append("routes[\(index)]: \(error.description)")
                    break
                }
            }
        }
        return problems
    }
}

extension CoordinatorTree {
    /// A fresh tree in `flow`, whatever the launch rules choose for `flags` (to try a route in its
    /// flow), with no overlay over it.
    init(app: AppDescription, flow: String, flags: Set<String>) {
        self.init(app: app, flags: flags)
        guard self.flow != flow || overlay != nil else { return }
        self[node: rootID].children = []
        nodes = [rootID: self[node: rootID]]
        navigators = [:]
        navigatorOrder = []
        overlay = nil
        self.flow = flow
        buildBase()
    }
}
