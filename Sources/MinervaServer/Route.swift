/// The endpoint a request's path names, with the ids its placeholders take: recognised before
/// anything else is checked. A class: a request's handler holds it by one reference.
final class Route: Sendable {
    /// The row of ``Endpoint/all`` whose pattern the path matches.
    let endpoint: Endpoint
    /// The ids the path gives the pattern's placeholders.
    let parameters: PathParameters

    /// A route found by ``RouteTree``.
    init(endpoint: Endpoint, parameters: PathParameters) {
        self.endpoint = endpoint
        self.parameters = parameters
    }

    /// Recognises a path; `nil` means an unknown path (`404`).
    /// - Complexity: O(n) in the path's bytes; it allocates only for the route and the ids it returns.
    static func find(_ path: String) -> Route? {
        var path = path
        return path.withUTF8 { bytes in PathSegments(bytes).flatMap(RouteTree.api.route) }
    }
}
