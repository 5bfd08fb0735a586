/// The ids a path gives its endpoint's placeholders (`/v1/sessions/{id}/nodes/{node}/list`); a
/// placeholder the endpoint's pattern does not have is empty.
struct PathParameters: Equatable, Sendable {
    /// A placeholder's name, as openapi.yaml writes it between braces.
    enum Name: String, Sendable {
        case id, node, screen, version, fileName
    }

    /// `{id}`: the session's id.
    var id = ""
    /// `{node}`: a node's id.
    var node = ""
    /// `{screen}`: a screen's name.
    var screen = ""
    /// `{version}`: a version of the session, as the path writes it.
    var version = ""
    /// `{fileName}`: a file of the web client.
    var fileName = ""

    /// Gives the placeholder `name` its value.
    /// - Returns: `false` when the placeholder cannot take it: a `{fileName}` the web client does
    ///   not have names no path of the API (`404`).
    mutating func set(_ name: Name, to value: String) -> Bool {
        switch name {
        case .id: id = value
        case .node: node = value
        case .screen: screen = value
        case .version: version = value
        case .fileName:
            guard WebAssets.contains(value) else { return false }
            fileName = value
        }
        return true
    }
}
