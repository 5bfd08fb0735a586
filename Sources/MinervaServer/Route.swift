/// The endpoint a request's path names, with the ids its placeholders take: recognised before
/// anything else is checked.
struct Route {
    /// The row of ``Endpoint/all`` whose pattern the path matches.
    let endpoint: Endpoint
    /// The ids the path gives the pattern's placeholders.
    let parameters: PathParameters

    /// Recognises a path; `nil` means an unknown path (`404`).
    /// - Complexity: O(n) in the path's bytes and the endpoints; it allocates only for the ids it returns.
    init?(path: String) {
        var path = path
        guard let route = path.withUTF8({ bytes in PathSegments(bytes).flatMap(Self.init(matching:)) }) else { return nil }
        self = route
    }

    /// The endpoint whose pattern the segments match (no two patterns match the same path).
    private init?(matching segments: PathSegments) {
        let endpoints = Endpoint.all
        for index in endpoints.indices where segments.matches(endpoints[index].pattern) {
            guard let parameters = segments.parameters(of: endpoints[index].pattern) else { return nil }
            self.endpoint = endpoints[index]
            self.parameters = parameters
            return
        }
        return nil
    }
}
