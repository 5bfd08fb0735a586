/// The endpoint a request's path names, with the ids its placeholders take: recognised before
/// anything else is checked.
struct Route {
    /// The row of ``Endpoint/all`` whose pattern the path matches.
    let endpoint: Endpoint
    /// The ids the path gives the pattern's placeholders.
    let parameters: PathParameters

    /// Recognises a path; `nil` means an unknown path (`404`).
    /// - Complexity: O(n) in the path's bytes and the endpoints; it allocates only to look up a
    ///   web client's file name (the ids are made when read).
    init?(path: String) {
        var bytes = path
        let route = bytes.withUTF8 { PathSegments($0).flatMap { segments in Self(matching: segments, of: path) } }
        guard let route else { return nil }
        self = route
    }

    /// The endpoint whose pattern the segments of `path` match (no two patterns match the same path).
    private init?(matching segments: PathSegments, of path: String) {
        let endpoints = Endpoint.all
        for index in endpoints.indices where segments.matches(endpoints[index].pattern) {
            guard let parameters = segments.parameters(of: endpoints[index].pattern, in: path) else { return nil }
            self.endpoint = endpoints[index]
            self.parameters = parameters
            return
        }
        return nil
    }
}
