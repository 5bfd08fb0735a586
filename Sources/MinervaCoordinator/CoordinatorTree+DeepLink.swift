import MinervaJSON

extension CoordinatorTree {
    /// Follows a deep link: resets to a known state, then builds the route's chain with the
    /// normal operations. All or nothing: when a step fails, nothing changes.
    ///
    /// The reset dismisses everything presented, selects the route's tab (if it names one), and
    /// pops the visible base navigator to its root (in split, `primary` to its root and `detail`
    /// emptied); other tabs keep their stacks. Every node so removed gets reason `deepLink`. Each
    /// step is then applied as a `navigate` from the focus; query parameters become params of the
    /// last step.
    /// - Parameter url: a path (`/users/42`) or a URL with the app's scheme (`demo://users/42`).
    /// - Returns: the events and the route's path pattern.
    /// - Throws: `notFound` when no route matches; a failing step's own error.
    @discardableResult
    public mutating func deepLink(_ url: String) throws(NavigationError) -> (events: [NavigationEvent], route: String) {
        guard let (route, bindings, link) = app.match(url) else { throw .unknownRoute(url, in: app) }
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
        if !link.query.isEmpty, !steps.isEmpty {
            for (name, value) in link.query { steps[steps.count - 1].params[name] = .string(value) }
        }
        var next = self
        var events = next.resetForDeepLink(tab: route.tab)
        events += try next.apply(steps, from: nil).events
        self = next
        return (events, route.path)
    }

    /// Dismisses everything presented, selects `tab`, and pops the visible base navigator to its root.
    private mutating func resetForDeepLink(tab: String?) -> [NavigationEvent] {
        if let tab { selectedTab = tab }
        var removing = Set<NodeID>()
        for base in baseNavigators {
            for above in presentedChain(above: base) { removing.formUnion(navigators[above]!.stack) }
        }
        let visible = selectedTab.map { Self.navigatorID(forTab: $0) } ?? (layout == .split ? .primary : .main)
        removing.formUnion(navigators[visible]!.stack.dropFirst())
        if layout == .split { removing.formUnion(navigators[.detail]!.stack) }
        return remove(removing, reason: .deepLink)
    }
}

extension AppDescription {
    /// The route a deep link follows, if any: the first in file order that matches it.
    /// - Parameter url: a path or a URL with the app's scheme.
    public func route(for url: String) -> Route? {
        match(url)?.route
    }

    /// Why no route follows a deep link, for its `404`: a link with another scheme, or one that
    /// is neither a path nor a URL, is told what this app's links look like.
    /// - Parameter url: a deep link that ``route(for:)`` does not match.
    public func unmatchedLinkMessage(_ url: String) -> String {
        let text = Substring(url)
        guard let separator = DeepLinkURL.schemeSeparator(in: text) else {
            guard url.hasPrefix("/") else {
                return "the deep link \(Excerpt(url)) is neither a path nor a URL; a deep link starts with '/' (try \(Excerpt("/" + url)))"
            }
            return "no route matches the deep link \(Excerpt(url))"
        }
        let given = text[..<separator]
        let rest = text[text.index(separator, offsetBy: 3)...]
        guard given.lowercased() != scheme?.lowercased() else { return "no route matches the deep link \(Excerpt(url))" }
        guard let scheme else {
            return "the deep link \(Excerpt(url)) has the scheme \(Excerpt(String(given))), but this app has no scheme: its deep links are paths (try \(Excerpt("/" + rest)))"
        }
        return "the deep link \(Excerpt(url)) has the scheme \(Excerpt(String(given))), but this app's scheme is \(Excerpt(scheme)) (try \(Excerpt(scheme + "://" + rest)))"
    }

    func match(_ url: String) -> (route: Route, bindings: [String: String], link: DeepLinkURL)? {
        guard let link = DeepLinkURL(url, scheme: scheme) else { return nil }
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
