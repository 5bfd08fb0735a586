/// The ids a path gives its endpoint's placeholders (`/v1/sessions/{id}/nodes/{node}/list`): byte
/// ranges of the path, made into strings when read; a placeholder the endpoint's pattern does not
/// have reads as empty. Copying it copies the one reference to the path.
struct PathParameters: Sendable {
    /// A placeholder's name, as openapi.yaml writes it between braces.
    enum Name: String, Sendable {
        case id, node, screen, version, fileName, appVersion, token, experiment
    }

    /// The path the ids are segments of.
    private let path: String
    private var idRange = Span()
    private var nodeRange = Span()
    private var screenRange = Span()
    private var versionRange = Span()
    private var fileNameRange = Span()
    private var appVersionRange = Span()
    private var tokenRange = Span()
    private var experimentRange = Span()

    /// No ids yet, of `path`.
    init(of path: String) {
        self.path = path
    }

    /// `{id}`: the session's id.
    var id: String { self[idRange] }
    /// `{node}`: a node's id.
    var node: String { self[nodeRange] }
    /// `{screen}`: a screen's name.
    var screen: String { self[screenRange] }
    /// `{version}`: a version of the session, as the path writes it.
    var version: String { self[versionRange] }
    /// `{fileName}`: a file of the web client.
    var fileName: String { self[fileNameRange] }
    /// `{appVersion}`: a version of the app description.
    var appVersion: String { self[appVersionRange] }
    /// `{token}`: the id of a session's extra token.
    var token: String { self[tokenRange] }
    /// `{experiment}`: an experiment's key.
    var experiment: String { self[experimentRange] }

    /// Gives the placeholder `name` the bytes `range` of the path.
    /// - Returns: `false` when the placeholder cannot take them: a `{fileName}` the web client
    ///   does not have names no path of the API (`404`).
    mutating func set(_ name: Name, to range: Range<Int>) -> Bool {
        let range = Span(range)
        switch name {
        case .id: idRange = range
        case .node: nodeRange = range
        case .screen: screenRange = range
        case .version: versionRange = range
        case .appVersion: appVersionRange = range
        case .token: tokenRange = range
        case .experiment: experimentRange = range
        case .fileName:
            guard WebAssets.contains(self[range]) else { return false }
            fileNameRange = range
        }
        return true
    }

    /// The bytes `range` of the path, as a string.
    private subscript(range: Span) -> String {
        var path = path
        return path.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(range.start)..<Int(range.end)]), as: UTF8.self) }
    }
}

/// A placeholder's bytes of the path, in 32-bit offsets: the ids of a route stay within 128 bytes
/// with their path, which a route is copied with on every request (and a copy past 128 bytes
/// costs `memcpy` a longer path, measured in the hot path).
private struct Span: Sendable {
    var start: Int32 = 0
    var end: Int32 = 0

    init() {}

    init(_ range: Range<Int>) {
        start = Int32(clamping: range.lowerBound)
        end = Int32(clamping: range.upperBound)
    }
}
