import MinervaJSON

extension CoordinatorTree {
    /// Follows a deep link, keeping what is already shown (reconcile).
    ///
    /// The link's route belongs to a flow. Into the session's flow, the route's tab is selected
    /// (other tabs keep their stacks; window-level presentations over them are dismissed) and
    /// the steps are matched against what the visible navigators show above their base root, in
    /// the order steps would build it: the longest matching prefix stays untouched — ids, lists
    /// and subtrees — what lies above the first mismatch leaves, top-most first, reason
    /// `deepLink`, and the remaining steps are shown as `navigate`s. A node matches a step when
    /// the screen, its key params (``AppDescription/Screen/identity``), the way it was shown and,
    /// for a presented node, the style are the step's, and the step is not `fresh`. When every
    /// step matches and the deepest kept node's other params differ, they change in place
    /// (`paramsChanged`); when nothing differs, nothing happens. An applied link leaves a link
    /// kept for a later flow alone (forgot-PIN during sign-in keeps the payment link). A query
    /// parameter becomes a param of the last step when its screen declares it and the path does
    /// not give it; others (`utm_source`) are ignored. The tree is built as at regular width and
    /// then collapsed, so that it is the same in both size classes; a route into a tab whose
    /// root is guarded waits behind the guard with the tab switch.
    ///
    /// Into a flow later in `launch` than the session's, the link is kept as the pending one
    /// (the newest wins) and applied in the block that switches to that flow; into the session's
    /// flow while an overlay covers it, likewise, and applied in the block that takes the overlay away.
    /// - Parameter url: a path (`/users/42`), a URL with the app's scheme (`demo://users/42`), or
    ///   an `https` URL on one of the app's hosts.
    /// - Returns: the events and the route's path pattern.
    /// - Throws: `notFound` when no route matches; `conflict` for a route of a flow earlier in
    ///   `launch` than the session's, or of a later flow while a guarded target holds the pending
    ///   slot; a failing step's error, naming the route and the step.
    @discardableResult
    public mutating func deepLink(_ url: String) throws(NavigationError) -> (events: [NavigationEvent], route: String) {
        guard let (route, bindings, link) = app.match(url) else { throw .unknownRoute(url, in: app) }
        guard route.flow == flow, overlay == nil else {
            guard app.launchRank(of: route.flow) > app.launchRank(of: flow) || route.flow == flow else {
                throw .conflict(
                    "the deep link \(Excerpt(url)) opens in flow '\(route.flow)', which comes before this session's flow '\(flow)' in launch: "
                        + "the session shows '\(route.flow)' only while \(launchCondition(of: route.flow)) (and no earlier launch rule holds); change its flags first (POST …/flags)")
            }
            if let target = pending?.guarded {
                let why = route.flow == flow ? "under overlay '\(overlay ?? "")'" : "in flow '\(route.flow)', which comes later,"
                throw .conflict(
                    "the deep link \(Excerpt(url)) opens \(why) and would wait in the one pending slot, "
                        + "but a guarded target waits there for flow \(target.guardNode) ('\(nodes[target.guardNode]?.screen ?? "")'): "
                        + (overlay == nil ? "" : "once overlay '\(overlay ?? "")' leaves, ") + "finish or dismiss that flow first")
            }
            pending = .link(PendingLink(url: url, flow: route.flow))
            return ([], route.path)
        }
        var steps = route.steps.map { step in
            var resolved = step
            resolved.params = step.params.mapValues { value in
                if let text = value.stringValue, text.hasPrefix(":"), let bound = bindings[String(text.dropFirst())] {
                    return .string(bound)
                }
                return value
            }
            return resolved
        }
        if !link.query.isEmpty, let last = route.steps.last, let declared = app.screens[last.screen]?.params {
            for (name, value) in link.query where declared.contains(name) && !Self.isPathBound(last.params[name]) {
                steps[steps.count - 1].params[name] = .string(value)
            }
        }
        var next = self
        if let tab = route.tab, tab != selectedTab, let diverted = try next.divertSelection(of: tab, then: steps) {
            self = next
            return (diverted, route.path)
        }
        // A route builds one tree whatever the size class: as at regular width, then collapsed.
        let horizontal = next.sizeClass
        next.sizeClass = .regular
        var events = try next.reconcile(steps, tab: route.tab, of: route)
        next.sizeClass = horizontal
        events += next.dismissHiddenPresentations()
        self = next
        return (events, route.path)
    }

    /// Whether a step's param takes a path parameter (`":id"`): the path gives it, not the query.
    static func isPathBound(_ value: JSONValue?) -> Bool {
        value?.stringValue?.hasPrefix(":") == true
    }

    /// Brings the visible navigators to `steps` above their base root, keeping the longest
    /// matching prefix (see ``deepLink(_:)``). A failing step's error names `route`, when given.
    mutating func reconcile(
        _ steps: [AppDescription.Step], tab: String?, of route: AppDescription.Route?
    ) throws(NavigationError) -> [NavigationEvent] {
        let bases = tab.map { [Self.navigatorID(forTab: $0)] } ?? visibleBases
        var removing = Set<NodeID>()
        // Window-level presentations over other tabs or columns would cover the target.
        for base in baseNavigators where !bases.contains(base) {
            for above in presentedChain(above: base) where self[navigator: above].coversWindow { removing.formUnion(self[navigator: above].stack) }
        }
        let chain = shownChain(of: bases)
        var kept = 0
        while kept < min(chain.count, steps.count), matches(self[node: chain[kept]], steps[kept]) { kept += 1 }
        removing.formUnion(chain[kept...])
        // Removed while the screens stand as shown (a cover over the old tab is on top), then the tab changes.
        var events = remove(removing, reason: .deepLink)
        if let tab { selectedTab = tab }
        if kept == steps.count, let deepest = chain.prefix(kept).last, self[node: deepest].params != steps[kept - 1].params {
            events += updateParams(of: deepest, to: steps[kept - 1].params)
        }
        for index in kept..<steps.count {
            do throws(NavigationError) {
                // A guarded step shows its flow; it and the steps after it wait for the flow.
                if let diverted = try divert(Array(steps[index...]), as: .navigate, from: nil) {
                    events += diverted.events
                    break
                }
                events += try show(steps[index], from: nil).events
            } catch {
                guard let route else { throw error }
                throw routeStepError(error, route: route, step: index)
            }
        }
        return events
    }

    /// A failing route step's error: which route and step, and what to change in the app file.
    private func routeStepError(_ error: NavigationError, route: AppDescription.Route, step index: Int) -> NavigationError {
        let step = route.steps[index]
        let place = "routes[\(app.routes.firstIndex(of: route) ?? 0)].steps[\(index)]"
        let entry = app.screens[step.screen]
        let focused = self[node: focus]
        var reason = error.description
        var fix = "change \(place) in the app file"
        if (step.presentation ?? entry?.presentation) == .push, let navigator = focused.navigator, navigators[navigator]?.embedded == false {
            reason = "'\(step.screen)' is pushed, but '\(focused.screen)' below it was presented without a navigation stack"
            fix = index > 0
                ? "give routes[\(app.routes.firstIndex(of: route) ?? 0)].steps[\(index - 1)] \"embedInNavigation\": true, or \(place) \"presentation\": \"present\", in the app file"
                : "give \(place) \"presentation\": \"present\" in the app file"
        }
        return NavigationError(
            category: error.category,
            description: "the deep link's route '\(route.path)' cannot show its step \(index + 1) (screen '\(step.screen)'): \(reason); \(fix) (minerva-server --check-app finds such routes)",
            namesUndeclared: error.namesUndeclared)
    }

    /// The base navigators a deep link builds on: the selected tab's, `v0`, or the split view's columns.
    private var visibleBases: [NavigatorID] {
        if let selectedTab { return [Self.navigatorID(forTab: selectedTab)] }
        return layout == .split ? columns : [.main]
    }

    /// What `bases` show above the first one's root, in the order steps build it: the first
    /// base's stack above its root, the other bases' stacks, then each one's presented stacks.
    private func shownChain(of bases: [NavigatorID]) -> [NodeID] {
        var chain: [NodeID] = []
        for (index, base) in bases.enumerated() {
            chain += index == 0 ? self[navigator: base].stack.dropFirst() : self[navigator: base].stack[...]
        }
        for base in bases {
            for above in presentedChain(above: base) { chain += self[navigator: above].stack }
        }
        return chain
    }

    /// Whether a shown node is what a step would show: the same screen and key params, pushed
    /// or presented as the step would, presented in the same style and with the same embedding
    /// (a navigation stack or none); never for a `fresh` step.
    private func matches(_ node: Node, _ step: AppDescription.Step) -> Bool {
        guard !step.fresh, node.screen == step.screen, let entry = app.screens[step.screen] else { return false }
        for param in entry.identity where node.params[param] != step.params[param] { return false }
        let presented = (step.presentation ?? entry.presentation) == .present
        guard presented == (node.presentation.kind == .present) else { return false }
        guard presented else { return true }
        let embedded = step.embedInNavigation ?? entry.embedInNavigation ?? false
        return node.presentation.style == (step.style ?? entry.style ?? .automatic) && navigators[node.stackNavigator]?.embedded == embedded
    }
}

extension AppDescription {
    /// The route a deep link follows, if any: the first in file order that matches it.
    /// - Parameter url: a path, a URL with the app's scheme, or an `https` URL on one of its hosts.
    public func route(for url: String) -> Route? {
        match(url)?.route
    }

    func match(_ url: String) -> (route: Route, bindings: [String: String], link: DeepLinkURL)? {
        guard let link = DeepLinkURL(url, scheme: scheme, hosts: hosts) else { return nil }
        for route in routes {
            if let bindings = route.match(link.segments) { return (route, bindings, link) }
        }
        return nil
    }
}

extension NavigationError {
    static func unknownRoute(_ url: String, in app: AppDescription) -> NavigationError {
        .undeclared(.notFound, app.unmatchedLinkMessage(url))
    }
}
