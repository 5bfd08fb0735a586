import MinervaJSON

extension AppDescription {
    /// Why no route follows a deep link, for its `404`, with what to send instead: the path form
    /// of a link with another scheme, the `https` form of an `http` universal link, the hosts of
    /// an `https` link on another host, the nearest route for a typo.
    /// - Parameter url: a deep link that ``route(for:)`` does not match.
    public func unmatchedLinkMessage(_ url: String) -> String {
        let text = Substring(url)
        guard let separator = DeepLinkURL.schemeSeparator(in: text) else {
            guard url.hasPrefix("/") else {
                return "the deep link \(Excerpt(url)) is neither a path nor a URL; a deep link starts with '/' (try \(Excerpt("/" + url)))"
            }
            return noRouteMessage(url, path: text)
        }
        let given = text[..<separator].lowercased()
        let rest = text[text.index(separator, offsetBy: 3)...]
        if given == scheme?.lowercased() { return noRouteMessage(url, path: "/" + rest) }
        if given == "https" || given == "http", let host = DeepLinkURL.host(of: rest) {
            let listed = hosts.contains(host.lowercased())
            if listed, given == "http" {
                return "universal links are https only: \(Excerpt(url)) is not one (try \(Excerpt("https://" + rest)))"
            }
            if listed { return noRouteMessage(url, path: rest[host.endIndex...]) }
            if !hosts.isEmpty {
                return "the deep link \(Excerpt(url)) is on host \(Excerpt(String(host))), which is not one of this app's: \(hosts.joined(separator: ", "))"
            }
        }
        guard let scheme else {
            return "the deep link \(Excerpt(url)) has the scheme \(Excerpt(String(given))), but this app has no scheme"
                + (hosts.isEmpty ? "" : " and its universal links are on \(hosts.joined(separator: ", "))")
                + ": its deep links are paths (try \(Excerpt("/" + pathAfterHost(rest, scheme: given))))"
        }
        return "the deep link \(Excerpt(url)) has the scheme \(Excerpt(String(given))), but this app's scheme is \(Excerpt(scheme)) (try \(Excerpt(scheme + "://" + pathAfterHost(rest, scheme: given))))"
    }

    /// What follows the host of a web URL, or the rest of any other.
    private func pathAfterHost(_ rest: Substring, scheme: String) -> Substring {
        guard scheme == "https" || scheme == "http", let host = DeepLinkURL.host(of: rest) else { return rest }
        return rest[host.endIndex...].drop { $0 == "/" }
    }

    /// The `404` of a well-formed link no route matches: the nearest route's link when one is
    /// close (a typo in a literal segment), else the route patterns.
    private func noRouteMessage(_ url: String, path: Substring) -> String {
        let message = "no route matches the deep link \(Excerpt(url))"
        guard let link = DeepLinkURL(String(path), scheme: nil) else { return message }
        if let suggestion = nearestRoute(to: link.segments) {
            return message + " (did you mean \(Excerpt(suggestion))?)"
        }
        let patterns = routes.prefix(12).map(\.path).joined(separator: ", ")
        return routes.isEmpty ? message + "; this app declares no routes" : message + "; the routes are: \(patterns)\(routes.count > 12 ? ", …" : "")"
    }

    /// The link of the route closest to `segments`: the same number of segments, every literal
    /// one equal or a near miss (see `JSONKeys.nearest`), the fewest near misses; its
    /// parameters take the link's segments.
    private func nearestRoute(to segments: [String]) -> String? {
        var best: (path: String, misses: Int)?
        for route in routes where route.segments.count == segments.count {
            var misses = 0
            var filled: [String] = []
            for (pattern, given) in zip(route.segments, segments) {
                if pattern.hasPrefix(":") || pattern == given {
                    filled.append(DeepLinkURL.percentEncoded(given))
                } else if JSONKeys([pattern]).nearest(to: given) != nil {
                    misses += 1
                    filled.append(DeepLinkURL.percentEncoded(pattern))
                } else {
                    misses = .max
                    break
                }
            }
            if misses > 0, misses != .max, misses < best?.misses ?? .max {
                best = ("/" + filled.joined(separator: "/"), misses)
            }
        }
        return best?.path
    }
}
