import Foundation

/// Where two state documents differ, as JSON paths (`root.children[0].params.id`, `focus`).
enum StateDifference {
    /// The paths where `predicted` and `server` differ, lists included; a member one has and
    /// the other lacks counts as a difference at its path.
    static func paths(from predicted: SessionState, to server: SessionState) -> [String] {
        guard let left = json(predicted), let right = json(server) else { return [""] }
        var paths: [String] = []
        collect(left, right, at: "", into: &paths)
        return paths
    }

    private static func json(_ state: SessionState) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(state))
    }

    private static func collect(_ left: JSONValue, _ right: JSONValue, at path: String, into paths: inout [String]) {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                let member = path.isEmpty ? key : "\(path).\(key)"
                collect(a[key] ?? .null, b[key] ?? .null, at: member, into: &paths)
            }
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, (x, y)) in zip(a, b).enumerated() { collect(x, y, at: "\(path)[\(index)]", into: &paths) }
        default:
            if left != right { paths.append(path) }
        }
    }
}
