import MinervaJSON

extension CoordinatorTree {
    /// The deep link that rebuilds the current state, the inverse of ``deepLink(_:)``: the first
    /// route (in file order) of the session's flow whose steps name exactly the screens shown
    /// above the visible base root, each pushed or presented as the step would, with params that
    /// fill its path. The last screen's declared params that differ from the route's constants go
    /// in the query; a state with params no link sets (undeclared ones a client pushed) has none.
    /// - Returns: the path form (`/users/42`), or `nil` when no route describes the state.
    public func link() -> String? {
        let chain = visibleChain()
        for route in app.routes where route.flow == flow && route.steps.count == chain.count && (route.tab == nil || route.tab == selectedTab) {
            if let path = fill(route, with: chain) { return path }
        }
        return nil
    }

    /// The nodes a deep link builds: the visible base stack above its root (in split, the
    /// primary stack above its root and the detail stack), then everything presented above.
    private func visibleChain() -> [Node] {
        let bases: [NavigatorID]
        if let selectedTab {
            bases = [Self.navigatorID(forTab: selectedTab)]
        } else {
            bases = layout == .split ? columns : [.main]
        }
        var ids: [NodeID] = []
        for (index, base) in bases.enumerated() {
            ids += index == 0 ? self[navigator: base].stack.dropFirst() : self[navigator: base].stack[...]
        }
        for base in bases {
            for above in presentedChain(above: base) { ids += self[navigator: above].stack }
        }
        return ids.map { self[node: $0] }
    }

    private func fill(_ route: AppDescription.Route, with chain: [Node]) -> String? {
        var bindings: [String: String] = [:]
        var query: [(String, String)] = []
        for (index, (step, node)) in zip(route.steps, chain).enumerated() {
            guard step.screen == node.screen, let entry = app.screens[step.screen] else { return nil }
            let presented = (step.presentation ?? entry.presentation) == .present
            guard presented == (node.presentation.kind == .present) else { return nil }
            let last = index == chain.count - 1
            for (name, value) in step.params {
                guard let actual = node.params[name] else { return nil }
                if let text = value.stringValue, text.hasPrefix(":") {
                    guard let bound = Self.linkText(actual) else { return nil }
                    let parameter = String(text.dropFirst())
                    if let earlier = bindings[parameter], earlier != bound { return nil }
                    bindings[parameter] = bound
                } else if actual != value {
                    // The last screen's declared params come from the query too.
                    guard last, entry.params.contains(name), let text = Self.linkText(actual) else { return nil }
                    query.append((name, text))
                }
            }
            for (name, value) in node.params where step.params[name] == nil {
                // A link's query sets only the params the last screen declares.
                guard last, entry.params.contains(name), let text = Self.linkText(value) else { return nil }
                query.append((name, text))
            }
        }
        var segments: [String] = []
        for segment in route.segments {
            if segment.hasPrefix(":") {
                guard let bound = bindings[String(segment.dropFirst())] else { return nil }
                segments.append(DeepLinkURL.percentEncoded(bound))
            } else {
                segments.append(DeepLinkURL.percentEncoded(segment))
            }
        }
        var path = "/" + segments.joined(separator: "/")
        if !query.isEmpty {
            path += "?" + query.sorted { $0.0 < $1.0 }.map { "\(DeepLinkURL.percentEncoded($0.0))=\(DeepLinkURL.percentEncoded($0.1))" }
                .joined(separator: "&")
        }
        return path
    }

    /// A param as it would appear in a link: strings as they are, integers written out.
    private static func linkText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        default: nil
        }
    }
}
